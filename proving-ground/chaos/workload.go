package chaos

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"

	"informer-from-scratch/internal/demo"
)

// Resources are the types the workload writes and the informers watch:
// three, so that one resource's writes move etcd's revision past another's
// watch (a compaction then strands a quiet watch too).
var Resources = []string{"configmaps", "secrets", "pods"}

// poolSize is how many names each resource's objects are drawn from: small,
// so that creates, updates and deletes keep meeting the same objects.
const poolSize = 8

// Workload makes seeded random changes to a namespace: creates, updates
// (a label that changes every time, and now and then boom=true, which the
// buggy handler panics on) and deletes. It writes straight to the
// apiserver, not through the proxy; while the apiserver restarts it waits
// and tries the same change again, so the sequence of changes is the
// seed's whatever the faults do.
type Workload struct {
	client kubernetes.Interface
	ns     string
	rand   *rand.Rand
	seq    int
	counts WorkloadCounts
}

// WorkloadCounts is what a workload did.
type WorkloadCounts struct {
	Creates, Updates, Deletes int
	// NoOps are changes the server refused as they stood (a create of an
	// existing name, an update or delete of a missing one).
	NoOps int
	// Retries are changes tried again after the apiserver failed them.
	Retries int
}

// NewWorkload returns the workload of seed for namespace ns.
func NewWorkload(client kubernetes.Interface, ns string, seed uint64) *Workload {
	return &Workload{client: client, ns: ns, rand: rand.New(rand.NewPCG(seed, 0x3017))}
}

// Counts returns what the workload did so far.
func (w *Workload) Counts() WorkloadCounts { return w.counts }

// Run makes a change every pace until ctx ends. It returns an error only
// when a change keeps failing for a minute.
func (w *Workload) Run(ctx context.Context, pace time.Duration) error {
	return paced(ctx, pace, w.Step)
}

// Step makes one change.
func (w *Workload) Step(ctx context.Context) error {
	res := Resources[w.rand.IntN(len(Resources))]
	name := fmt.Sprintf("%s-%d", res[:len(res)-1], w.rand.IntN(poolSize))
	op := w.rand.IntN(10)
	w.seq++
	boom := w.rand.IntN(10) == 0
	var do func() error
	switch {
	case op < 4:
		do = func() error { return w.create(ctx, res, name) }
		w.counts.Creates++
	case op < 8:
		label := "null"
		if boom {
			label = `"true"`
		}
		patch := []byte(fmt.Sprintf(`{"metadata":{"labels":{"seq":"%d","boom":%s}}}`, w.seq, label))
		do = func() error { return w.patch(ctx, res, name, patch) }
		w.counts.Updates++
	default:
		do = func() error { return w.delete(ctx, res, name) }
		w.counts.Deletes++
	}
	return w.retry(ctx, do)
}

// retry makes one change, again and again while the apiserver fails it.
func (w *Workload) retry(ctx context.Context, do func() error) error {
	noOp, retries, err := retry(ctx, do, func(err error) bool { return apierrors.IsNotFound(err) || apierrors.IsAlreadyExists(err) })
	w.counts.Retries += retries
	if noOp {
		w.counts.NoOps++
	}
	return err
}

// retry makes one change, again and again (every 200ms, for up to a
// minute) while the apiserver fails it, and says whether the server refused
// it as it stood (refused says which errors mean that) and how many times
// it was tried again. ctx ending is not an error: the workload is over.
func retry(ctx context.Context, do func() error, refused func(error) bool) (noOp bool, retries int, err error) {
	deadline := time.Now().Add(time.Minute)
	for {
		err := do()
		switch {
		case err == nil:
			return false, retries, nil
		case refused(err):
			return true, retries, nil
		case ctx.Err() != nil:
			return false, retries, nil
		case time.Now().After(deadline):
			return false, retries, fmt.Errorf("workload: a change failed for a minute: %w", err)
		}
		retries++
		select {
		case <-ctx.Done():
			return false, retries, nil
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func (w *Workload) create(ctx context.Context, res, name string) error {
	meta := metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": "chaos"}}
	var err error
	switch res {
	case "configmaps":
		_, err = w.client.CoreV1().ConfigMaps(w.ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: meta, Data: map[string]string{"k": name}}, metav1.CreateOptions{})
	case "secrets":
		_, err = w.client.CoreV1().Secrets(w.ns).Create(ctx, &corev1.Secret{ObjectMeta: meta, StringData: map[string]string{"k": name}}, metav1.CreateOptions{})
	case "pods":
		_, err = w.client.CoreV1().Pods(w.ns).Create(ctx, demo.Pod(w.ns, name, meta.Labels), metav1.CreateOptions{})
	}
	return err
}

func (w *Workload) patch(ctx context.Context, res, name string, patch []byte) error {
	var err error
	switch res {
	case "configmaps":
		_, err = w.client.CoreV1().ConfigMaps(w.ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{})
	case "secrets":
		_, err = w.client.CoreV1().Secrets(w.ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{})
	case "pods":
		_, err = w.client.CoreV1().Pods(w.ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{})
	}
	return err
}

func (w *Workload) delete(ctx context.Context, res, name string) error {
	opts := metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}
	switch res {
	case "configmaps":
		return w.client.CoreV1().ConfigMaps(w.ns).Delete(ctx, name, opts)
	case "secrets":
		return w.client.CoreV1().Secrets(w.ns).Delete(ctx, name, opts)
	default:
		return w.client.CoreV1().Pods(w.ns).Delete(ctx, name, opts)
	}
}

// ServerContent is the truth: a LIST of each resource in the namespace,
// straight from the apiserver, as resource → key → resourceVersion.
func ServerContent(ctx context.Context, client kubernetes.Interface, ns string) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	for _, res := range Resources {
		list, err := client.CoreV1().RESTClient().Get().Namespace(ns).Resource(res).Do(ctx).Get()
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", res, err)
		}
		objs, err := metaList(list)
		if err != nil {
			return nil, err
		}
		out[res] = objs
	}
	return out, nil
}

// paced calls step every pace until ctx ends, or until step fails: a
// workload's Run.
func paced(ctx context.Context, pace time.Duration, step func(context.Context) error) error {
	t := time.NewTicker(pace)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		if err := step(ctx); err != nil {
			return err
		}
	}
}
