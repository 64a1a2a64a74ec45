package chaos

import (
	"context"
	"fmt"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"informer-from-scratch/internal/crd"
	"informer-from-scratch/internal/faultproxy"
)

// lastWord is the run's final change, made once everything has converged:
// every Foo is scaled, in every namespace, with 500s armed on the proxy for
// at least the first write each controller makes in answer (nothing else
// sends requests through it then: the informers' watches are open). A
// failed write is then the last thing that happens to that Foo: no event
// will come to queue it again, so only the controller's rate-limited retry
// of the failed key (AddRateLimited) puts it right. The storm before
// cannot show that: there, the next change of a Foo or of its Deployment
// (the stand-in writes status after every change) queues the key anyway.
//
// Before it, every Foo is scaled once without a fault, and lastWord waits
// until every namespace is right again and every Foo's last reconcile
// succeeded: the success Forgets the key, so the retry after the 500 waits
// the rate limiter's first delay (5ms), not one the storm's failures grew
// towards 1000s. It returns how many Foos it scaled in each namespace, or
// what did not settle, and leaves each side's converged, took and last as
// the last word's. The error is for the harness failing.
func lastWord(ctx context.Context, kube kubernetes.Interface, dyn dynamic.Interface, proxy *faultproxy.Proxy, states []*controllerState, bound time.Duration) (scaled int, unsettled string, err error) {
	if err := scaleEveryFoo(ctx, dyn, states); err != nil {
		return 0, "", err
	}
	var waiting string
	if err := waitUntil(ctx, bound, func() bool { waiting = settled(ctx, kube, dyn, states); return waiting == "" }); err != nil {
		return 0, fmt.Sprintf("before the last word, every Foo was scaled with no fault, and after %s %s", bound, waiting), nil
	}
	for _, st := range states {
		st.lastWord.Store(true)
	}
	// Each Inject arms the next Spread (two, by default) requests: one per
	// Foo and side is more than enough.
	for range len(states[0].last.Foos) * len(states) {
		if err := proxy.Inject(faultproxy.ServerError); err != nil {
			return 0, "", err
		}
	}
	if err := scaleEveryFoo(ctx, dyn, states); err != nil {
		return 0, "", err
	}
	converge(ctx, kube, dyn, states, bound, time.Now())
	return len(states[0].last.Foos), "", nil
}

// scaleEveryFoo changes the replicas of every Foo the first side's
// namespace held when last read, the same in every namespace.
func scaleEveryFoo(ctx context.Context, dyn dynamic.Interface, states []*controllerState) error {
	for name, foo := range states[0].last.Foos {
		patch := fmt.Appendf(nil, `{"spec":{"replicas":%d}}`, foo.Replicas%5+1)
		for _, st := range states {
			if _, err := dyn.Resource(crd.Foo.GVR()).Namespace(st.ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
				return fmt.Errorf("the last word: scaling Foo %s/%s: %w", st.ns, name, err)
			}
		}
	}
	return nil
}

// settled returns "" when every namespace is what its Foos ask for and
// every Foo's last reconcile, in every controller, succeeded; otherwise
// what is not yet so.
func settled(ctx context.Context, kube kubernetes.Interface, dyn dynamic.Interface, states []*controllerState) string {
	for _, st := range states {
		w, err := ReadFooWorld(ctx, kube, dyn, st.ns)
		if err != nil {
			return fmt.Sprintf("%s: reading its namespace: %v", st.side.Name(), err)
		}
		st.last = w
		if diff := cmp.Diff(w.Wanted(), w); diff != "" {
			return fmt.Sprintf("%s's namespace %s is not what its Foos ask for (-wanted +got):\n%s", st.side.Name(), st.ns, diff)
		}
		for name := range w.Foos {
			if key := st.ns + "/" + name; !st.succeededLast(key) {
				return fmt.Sprintf("%s's last reconcile of %s failed", st.side.Name(), key)
			}
		}
	}
	return ""
}
