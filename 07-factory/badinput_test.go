package factory_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/informers"
	clientgocorev1 "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"

	informer "informer-from-scratch/06-sharedinformer"
	factory "informer-from-scratch/07-factory"
	corev1informers "informer-from-scratch/07-factory/core/v1"
	"informer-from-scratch/07-factory/dynamicinformer"
	"informer-from-scratch/07-factory/internalinterfaces"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/testenv"
)

// panics runs f and returns what it panicked with, or nil.
func panics(f func()) (recovered any) {
	defer func() { recovered = recover() }()
	f()
	return nil
}

// syncFor starts f's requested informers, waits a minute of fake time for
// them, and returns AsError's message.
func syncFor(t *testing.T, f factory.SharedInformerFactory) string {
	ctx, cancel := context.WithCancel(context.Background())
	f.StartWithContext(ctx)
	wctx, wcancel := context.WithTimeout(ctx, time.Minute)
	err := f.WaitForCacheSyncWithContext(wctx).AsError()
	wcancel()
	cancel()
	f.Shutdown()
	if err == nil {
		return ""
	}
	return err.Error()
}

// reportedAny says whether any reported error contains want.
func reportedAny(msgs []string, want string) bool {
	for _, m := range msgs {
		if strings.Contains(m, want) {
			return true
		}
	}
	return false
}

// TestNilClientIsAClearError: a factory given a nil clientset (or a nil
// pointer to one). client-go's accepts it and its informer calls the nil
// client in the reflector's goroutine, which crashes the process (so it
// cannot be shown beside ours in one test). Ours accepts it too, and its
// informers fail every request with ErrNilClient, reported through
// HandleError, and never sync; the dynamic factory likewise.
func TestNilClientIsAClearError(t *testing.T) {
	for name, client := range map[string]kubernetes.Interface{
		"nil":                 nil,
		"nil *fake.Clientset": (*fake.Clientset)(nil),
	} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				errs := testenv.CaptureErrors(t)
				f := factory.NewSharedInformerFactory(client, 0)
				f.Core().V1().Pods().Informer()
				if got := syncFor(t, f); !strings.Contains(got, "*v1.Pod") {
					t.Errorf("WaitForCacheSyncWithContext(...).AsError() = %q, want the pod informer named", got)
				}
				if msgs := errs.Take(); !reportedAny(msgs, internalinterfaces.ErrNilClient.Error()) {
					t.Errorf("reported %q; want %q among them", msgs, internalinterfaces.ErrNilClient)
				}
			})
		})
	}
	t.Run("dynamic", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			errs := testenv.CaptureErrors(t)
			f := dynamicinformer.NewDynamicSharedInformerFactory(nil, 0)
			gvr := schema.GroupVersionResource{Group: "samplecontroller.k8s.io", Version: "v1alpha1", Resource: "foos"}
			f.ForResource(gvr)
			stopCh := make(chan struct{})
			f.Start(stopCh)
			time.AfterFunc(time.Minute, func() { close(stopCh) })
			if synced := f.WaitForCacheSync(stopCh); synced[gvr] {
				t.Errorf("a dynamic informer with a nil client synced")
			}
			f.Shutdown()
			if msgs := errs.Take(); !reportedAny(msgs, "listing "+gvr.String()+": "+internalinterfaces.ErrNilClient.Error()) {
				t.Errorf("reported %q; want the nil client named with the resource", msgs)
			}
		})
	})
}

// TestInformerForBadInput: InformerFor with no object, no function, or a
// function that returns nil. client-go's panics on the nil function and
// stores the nil informer (a panic later); keyed by a nil type, it would
// share one informer among every caller that passes nil. Ours reports each
// through HandleError and returns an informer that reports the same error
// at every try and never syncs; a nil object's informer is not the
// factory's, the others stand for their type so WaitForCacheSync names it.
func TestInformerForBadInput(t *testing.T) {
	client := fake.NewClientset()
	theirs := informers.NewSharedInformerFactory(client, 0)
	if p := panics(func() { theirs.InformerFor(&corev1.Pod{}, nil) }); p == nil {
		t.Errorf("client-go's InformerFor(pod, nil) did not panic; the comparison below is out of date")
	}

	for _, tc := range []struct {
		name    string
		obj     *corev1.Pod
		newFunc internalinterfaces.NewInformerFunc
		want    string
		waited  string // what WaitForCacheSync's error names, "" if nothing
	}{
		{"nil object", nil, newPodInformer, "InformerFor was given a nil object", ""},
		{"nil function", &corev1.Pod{}, nil, "InformerFor(*v1.Pod) was given a nil NewInformerFunc", "*v1.Pod"},
		{"nil informer", &corev1.Pod{}, func(kubernetes.Interface, time.Duration) informer.SharedIndexInformer { return nil }, "returned nil", "*v1.Pod"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				errs := testenv.CaptureErrors(t)
				f := factory.NewSharedInformerFactory(client, 0)
				var inf informer.SharedIndexInformer
				if tc.obj == nil {
					inf = f.InformerFor(nil, tc.newFunc)
				} else {
					inf = f.InformerFor(tc.obj, tc.newFunc)
				}
				if inf == nil {
					t.Fatal("InformerFor returned nil")
				}
				if _, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{}); err != nil {
					t.Errorf("the informer returned refuses a handler: %v", err)
				}
				if msgs := errs.Take(); !reportedAny(msgs, tc.want) {
					t.Errorf("reported %q; want %q", msgs, tc.want)
				}
				got := syncFor(t, f)
				if tc.waited == "" && got != "" || tc.waited != "" && !strings.Contains(got, tc.waited) {
					t.Errorf("WaitForCacheSyncWithContext(...).AsError() = %q, want it to name %q", got, tc.waited)
				}
				if tc.waited != "" && !inf.IsStopped() {
					t.Errorf("the factory's informer still runs after cancel and Shutdown: Shutdown waits for every informer goroutine Start began")
				}
				if tc.waited == "" && inf.IsStopped() {
					t.Errorf("the informer returned for a nil object ran and stopped with the factory's: the factory kept it, under a nil type that every caller passing nil would share, and Start ran it")
				}
			})
		})
	}
}

// newPodInformer is a NewInformerFunc that works.
func newPodInformer(client kubernetes.Interface, resync time.Duration) informer.SharedIndexInformer {
	return corev1informers.NewPodInformer(client, metav1.NamespaceAll, resync, informer.Indexers{})
}

// TestWrongObjectTypeInInformerFor: a caller keys an informer of config
// maps by the pod type, so the pods accessor hands out that informer. Both
// factories share it as asked; then client-go's typed pod lister panics on
// the first config map (its type assertion) while ours returns an error
// naming both types.
func TestWrongObjectTypeInInformerFor(t *testing.T) {
	objects := []runtime.Object{&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "not-a-pod"}}}
	var theirPanic any
	var ourErr error
	var theirsShared, oursShared bool // the accessor hands out what InformerFor built
	synctest.Test(t, func(t *testing.T) {
		client := fake.NewClientset(objects...)
		f := informers.NewSharedInformerFactory(client, 0)
		built := f.InformerFor(&corev1.Pod{}, func(c kubernetes.Interface, resync time.Duration) cache.SharedIndexInformer {
			return clientgocorev1.NewConfigMapInformer(c, "", resync, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
		})
		pods := f.Core().V1().Pods()
		pods.Informer()
		ctx, cancel := context.WithCancel(context.Background())
		f.StartWithContext(ctx)
		f.WaitForCacheSyncWithContext(ctx)
		theirPanic = panics(func() { _, _ = pods.Lister().Pods("a").List(labels.Everything()) })
		theirsShared = storeOf(built) == storeOf(pods.Informer())
		cancel()
		f.Shutdown()
	})
	synctest.Test(t, func(t *testing.T) {
		client := fake.NewClientset(objects...)
		f := factory.NewSharedInformerFactory(client, 0)
		built := f.InformerFor(&corev1.Pod{}, func(c kubernetes.Interface, resync time.Duration) informer.SharedIndexInformer {
			return corev1informers.NewConfigMapInformer(c, "", resync, informer.Indexers{informer.NamespaceIndex: informer.MetaNamespaceIndexFunc})
		})
		pods := f.Core().V1().Pods()
		pods.Informer()
		ctx, cancel := context.WithCancel(context.Background())
		f.StartWithContext(ctx)
		f.WaitForCacheSyncWithContext(ctx)
		_, ourErr = pods.Lister().Pods("a").List(labels.Everything())
		oursShared = storeOf(built) == storeOf(pods.Informer())
		cancel()
		f.Shutdown()
	})
	if theirPanic == nil || !theirsShared {
		t.Errorf("client-go's pods accessor handed out the informer InformerFor built: %v, and its lister panicked: %v; the comparison is out of date", theirsShared, theirPanic)
	}
	if !oursShared {
		t.Errorf("our pods accessor did not hand out the informer InformerFor built for *v1.Pod (client-go's did): a second InformerFor of a type must return the first one's informer")
	}
	if ourErr == nil || !strings.Contains(ourErr.Error(), "cached item is a *v1.ConfigMap, not a *v1.Pod") {
		t.Errorf("our lister returned %v; want an error naming both types (client-go panics: %v)", ourErr, theirPanic)
	}
}

// TestOtherBadInput: the small mistakes. A nil option (client-go calls it
// and panics; ours skips it), a nil label selector in a lister (client-go
// dereferences it; ours returns an error), and ForResource of a resource
// the factory does not serve (an error from both; ours says which it
// serves and where to go).
func TestOtherBadInput(t *testing.T) {
	client := fake.NewClientset(demo.Pod("a", "p", nil))
	if p := panics(func() { informers.NewSharedInformerFactoryWithOptions(client, 0, nil) }); p == nil {
		t.Errorf("client-go accepted a nil option; the comparison is out of date")
	}
	if p := panics(func() { factory.NewSharedInformerFactoryWithOptions(client, 0, nil) }); p != nil {
		t.Errorf("ours panicked on a nil option: %v", p)
	}

	theirs := informers.NewSharedInformerFactory(client, 0)
	if p := panics(func() { _, _ = theirs.Core().V1().Pods().Lister().List(nil) }); p == nil {
		t.Errorf("client-go's lister accepted a nil selector; the comparison is out of date")
	}
	ours := factory.NewSharedInformerFactory(client, 0)
	if _, err := ours.Core().V1().Pods().Lister().List(nil); err == nil || !strings.Contains(err.Error(), "label selector is nil") {
		t.Errorf("our lister with a nil selector: %v", err)
	}

	unknown := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	_, theirErr := theirs.ForResource(unknown)
	_, ourErr := ours.ForResource(unknown)
	if theirErr == nil || ourErr == nil {
		t.Fatalf("ForResource(%v): client-go %v, ours %v; want errors from both", unknown, theirErr, ourErr)
	}
	want := fmt.Sprintf("no informer found for %v: this factory serves configmaps, namespaces, pods, services, deployments; for any other resource use dynamicinformer.NewDynamicSharedInformerFactory", unknown)
	if ourErr.Error() != want {
		t.Errorf("ours: %q\nwant: %q\n(client-go: %q)", ourErr, want, theirErr)
	}
}

// TestInformerForReportsATransformItCannotSet: a factory built with
// WithTransform sets the transform on every informer InformerFor builds. On
// a new informer that works and reports nothing, in both libraries. A
// newFunc that hands back an informer already running is a mistake the
// factory cannot mend: the transform can no longer be set (SetTransform
// refuses, in both libraries), so that informer caches whole objects.
// client-go drops SetTransform's error; ours reports it through
// HandleError, naming the type, and reports nothing when there is none.
func TestInformerForReportsATransformItCannotSet(t *testing.T) {
	// Each side runs InformerFor for pods on a factory with a transform, its
	// newFunc handing back a new informer or one already running, and
	// returns what was reported meanwhile.
	theirSide := func(t *testing.T, running bool) (reported []string) {
		synctest.Test(t, func(t *testing.T) {
			errs := testenv.CaptureErrors(t)
			client := fake.NewClientset()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			inf := clientgocorev1.NewPodInformer(client, metav1.NamespaceAll, 0, cache.Indexers{})
			if running {
				go inf.RunWithContext(ctx)
				synctest.Wait()
				if err := inf.SetTransform(keepOnlyAppLabel); err == nil {
					t.Errorf("client-go's SetTransform on a running informer did not refuse; the comparison is out of date")
				}
			}
			f := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithTransform(keepOnlyAppLabel))
			f.InformerFor(&corev1.Pod{}, func(kubernetes.Interface, time.Duration) cache.SharedIndexInformer { return inf })
			reported = errs.Take()
		})
		return reported
	}
	ourSide := func(t *testing.T, running bool) (reported []string) {
		synctest.Test(t, func(t *testing.T) {
			errs := testenv.CaptureErrors(t)
			client := fake.NewClientset()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			inf := corev1informers.NewPodInformer(client, metav1.NamespaceAll, 0, informer.Indexers{})
			if running {
				go inf.RunWithContext(ctx)
				synctest.Wait()
			}
			f := factory.NewSharedInformerFactoryWithOptions(client, 0, factory.WithTransform(keepOnlyAppLabel))
			f.InformerFor(&corev1.Pod{}, func(kubernetes.Interface, time.Duration) informer.SharedIndexInformer { return inf })
			reported = errs.Take()
		})
		return reported
	}

	t.Run("a new informer", func(t *testing.T) {
		theirs, ours := theirSide(t, false), ourSide(t, false)
		if diff := cmp.Diff(theirs, ours); diff != "" {
			t.Errorf("InformerFor set the transform on a new informer, which works; what was reported (-client-go +ours):\n%s", diff)
		}
	})
	t.Run("an informer already running", func(t *testing.T) {
		theirs, ours := theirSide(t, true), ourSide(t, true)
		if len(theirs) != 0 {
			t.Errorf("client-go reported %q; it drops SetTransform's error, and the comparison is out of date", theirs)
		}
		if want := "setting the transform on the *v1.Pod informer"; !reportedAny(ours, want) {
			t.Errorf("ours reported %q; want an error containing %q: the informer newFunc returned already runs, so the factory's transform was not set, and client-go drops that error silently", ours, want)
		}
	})
}
