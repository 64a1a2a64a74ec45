package factory_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"

	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/testenv"
)

// workload makes seeded random changes to pods, config maps, services and
// deployments in a few namespaces: creates, relabels (app=web or db, tier
// front or back: what the tests' selectors tell apart) and deletes.
type workload struct {
	t          *testing.T
	ctx        context.Context
	client     kubernetes.Interface
	rand       *rand.Rand
	namespaces []string
	seq        int
}

var workloadKinds = []string{"configmaps", "deployments", "pods", "services"}

func newWorkload(t *testing.T, ctx context.Context, client kubernetes.Interface, seed uint64, namespaces ...string) *workload {
	w := &workload{t: t, ctx: ctx, client: client, rand: rand.New(rand.NewPCG(seed, 7)), namespaces: namespaces}
	for _, ns := range namespaces {
		_, err := client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns, Labels: map[string]string{"workload": "yes"}}}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// run makes n changes.
func (w *workload) run(n int) {
	for range n {
		kind := workloadKinds[w.rand.IntN(len(workloadKinds))]
		ns := w.namespaces[w.rand.IntN(len(w.namespaces))]
		name := fmt.Sprintf("%s-%d", kind[:len(kind)-1], w.rand.IntN(5))
		labels := map[string]string{
			"app":  []string{"web", "db"}[w.rand.IntN(2)],
			"tier": []string{"front", "back"}[w.rand.IntN(2)],
		}
		var err error
		switch w.rand.IntN(3) {
		case 0:
			err = w.create(kind, ns, name, labels)
		case 1:
			w.seq++
			patch := fmt.Sprintf(`{"metadata":{"labels":{"app":%q,"tier":%q,"seq":"%d"}}}`, labels["app"], labels["tier"], w.seq)
			err = w.patch(kind, ns, name, []byte(patch))
		default:
			err = w.delete(kind, ns, name)
		}
		if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsAlreadyExists(err) {
			w.t.Fatalf("workload: %s %s/%s: %v", kind, ns, name, err)
		}
	}
}

func (w *workload) create(kind, ns, name string, labels map[string]string) error {
	meta := metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels}
	var err error
	switch kind {
	case "configmaps":
		_, err = w.client.CoreV1().ConfigMaps(ns).Create(w.ctx, &corev1.ConfigMap{ObjectMeta: meta, Data: map[string]string{"k": "v"}}, metav1.CreateOptions{})
	case "deployments":
		_, err = w.client.AppsV1().Deployments(ns).Create(w.ctx, demo.Deployment(ns, name, labels), metav1.CreateOptions{})
	case "pods":
		_, err = w.client.CoreV1().Pods(ns).Create(w.ctx, demo.Pod(ns, name, labels), metav1.CreateOptions{})
	case "services":
		_, err = w.client.CoreV1().Services(ns).Create(w.ctx, &corev1.Service{ObjectMeta: meta, Spec: corev1.ServiceSpec{
			Selector: map[string]string{"app": labels["app"]},
			Ports:    []corev1.ServicePort{{Port: 80}},
		}}, metav1.CreateOptions{})
	}
	return err
}

func (w *workload) patch(kind, ns, name string, patch []byte) error {
	var err error
	opts := metav1.PatchOptions{}
	switch kind {
	case "configmaps":
		_, err = w.client.CoreV1().ConfigMaps(ns).Patch(w.ctx, name, types.MergePatchType, patch, opts)
	case "deployments":
		_, err = w.client.AppsV1().Deployments(ns).Patch(w.ctx, name, types.MergePatchType, patch, opts)
	case "pods":
		_, err = w.client.CoreV1().Pods(ns).Patch(w.ctx, name, types.MergePatchType, patch, opts)
	case "services":
		_, err = w.client.CoreV1().Services(ns).Patch(w.ctx, name, types.MergePatchType, patch, opts)
	}
	return err
}

func (w *workload) delete(kind, ns, name string) error {
	opts := metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}
	switch kind {
	case "configmaps":
		return w.client.CoreV1().ConfigMaps(ns).Delete(w.ctx, name, opts)
	case "deployments":
		return w.client.AppsV1().Deployments(ns).Delete(w.ctx, name, opts)
	case "pods":
		return w.client.CoreV1().Pods(ns).Delete(w.ctx, name, opts)
	default:
		return w.client.CoreV1().Services(ns).Delete(w.ctx, name, opts)
	}
}

// truth is a fresh LIST of kind from the server (in namespace, "" for
// all, and as opts filter it): key → resourceVersion. It reads through the
// dynamic client, so one call serves every kind.
func truth(ctx context.Context, client dynamic.Interface, kind, namespace string, opts metav1.ListOptions) (map[string]string, error) {
	resource := client.Resource(gvrOf[kind])
	var lister dynamic.ResourceInterface = resource
	if kind != "namespaces" {
		lister = resource.Namespace(namespace)
	}
	list, err := lister.List(ctx, opts)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, item := range list.Items {
		out[testenv.ObjectKey(item.GetNamespace(), item.GetName())] = item.GetResourceVersion()
	}
	return out, nil
}
