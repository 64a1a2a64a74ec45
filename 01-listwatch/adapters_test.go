package listwatch_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/watchlist"
	"k8s.io/utils/ptr"

	listwatch "informer-from-scratch/01-listwatch"
	"informer-from-scratch/internal/reqlog"
)

// legacy implements only the deprecated context-less interface and records
// the calls it gets.
type legacy struct{ calls []string }

func (l *legacy) List(o metav1.ListOptions) (runtime.Object, error) {
	l.calls = append(l.calls, "List rv="+o.ResourceVersion)
	return &metav1.List{}, nil
}

func (l *legacy) Watch(o metav1.ListOptions) (watch.Interface, error) {
	l.calls = append(l.calls, "Watch rv="+o.ResourceVersion)
	return watch.NewEmptyWatch(), nil
}

func TestToListerWatcherWithContextMatchesClientGo(t *testing.T) {
	ctx := context.Background()
	drive := func(lw interface {
		ListWithContext(context.Context, metav1.ListOptions) (runtime.Object, error)
		WatchWithContext(context.Context, metav1.ListOptions) (watch.Interface, error)
	}) {
		lw.ListWithContext(ctx, metav1.ListOptions{ResourceVersion: "0"})
		w, _ := lw.WatchWithContext(ctx, metav1.ListOptions{ResourceVersion: "7"})
		w.Stop()
	}
	theirs, ours := &legacy{}, &legacy{}
	drive(cache.ToListerWatcherWithContext(theirs))
	drive(listwatch.ToListerWatcherWithContext(ours))
	if diff := cmp.Diff(theirs.calls, ours.calls); diff != "" {
		t.Errorf("calls reaching the legacy ListerWatcher (-client-go +ours):\n%s", diff)
	}

	// A ListerWatcher that already has the context methods is used as is.
	lw := &listwatch.ListWatch{}
	if got := listwatch.ToListerWatcherWithContext(lw); got != listwatch.ListerWatcherWithContext(lw) {
		t.Errorf("ToListerWatcherWithContext wrapped a ListWatch instead of returning it")
	}
}

// TestAZeroListWatchIsAnErrorNotAPanic: client-go calls the missing function
// and panics; ours says which one is missing.
func TestAZeroListWatchIsAnErrorNotAPanic(t *testing.T) {
	lw := &listwatch.ListWatch{}
	if _, err := lw.ListWithContext(context.Background(), metav1.ListOptions{}); err == nil || !strings.Contains(err.Error(), "ListWithContextFunc") {
		t.Errorf("List on a zero ListWatch returned %v, want an error naming ListWithContextFunc", err)
	}
	if _, err := lw.Watch(metav1.ListOptions{}); err == nil || !strings.Contains(err.Error(), "WatchFuncWithContext") {
		t.Errorf("Watch on a zero ListWatch returned %v, want an error naming WatchFuncWithContext", err)
	}
}

// TestNilModifierAndSelectorMeanNoFilter: where client-go panics on a nil
// options modifier or field selector, ours sends exactly the requests
// client-go sends for "no modifier" and fields.Everything().
func TestNilModifierAndSelectorMeanNoFilter(t *testing.T) {
	client := recordingClient(t, nil)
	ns := newNamespace(t, client, "nil-filters", 2)
	ctx := context.Background()
	drive := func(lw listwatch.ListerWatcherWithContext) {
		t.Helper()
		if _, err := lw.ListWithContext(ctx, metav1.ListOptions{}); err != nil {
			t.Fatal(err)
		}
		w, err := lw.WatchWithContext(ctx, metav1.ListOptions{ResourceVersion: "0", TimeoutSeconds: ptr.To[int64](1)})
		if err != nil {
			t.Fatal(err)
		}
		w.Stop()
	}
	cgRec, ourRec := &reqlog.Recorder{}, &reqlog.Recorder{}
	cgClient, ourClient := recordingClient(t, cgRec), recordingClient(t, ourRec)
	drive(cache.NewFilteredListWatchFromClient(cgClient.CoreV1().RESTClient(), "pods", ns, func(*metav1.ListOptions) {}))
	drive(cache.NewListWatchFromClient(cgClient.CoreV1().RESTClient(), "pods", ns, fields.Everything()))
	drive(listwatch.NewFilteredListWatchFromClient(ourClient.CoreV1().RESTClient(), "pods", ns, nil))
	drive(listwatch.NewListWatchFromClient(ourClient.CoreV1().RESTClient(), "pods", ns, nil))
	if diff := cmp.Diff(queries(t, cgRec.Requests()), queries(t, ourRec.Requests())); diff != "" {
		t.Errorf("requests (-client-go with no filter +ours with nil):\n%s", diff)
	}
}

// halfContext has ListWithContext but only the context-less Watch: client-go
// converts each half on its own, so it lists with the context and watches
// without one.
type halfContext struct{ legacy }

func (h *halfContext) ListWithContext(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
	h.calls = append(h.calls, fmt.Sprintf("ListWithContext rv=%s ctx=%v", o.ResourceVersion, ctx.Value(ctxKey{})))
	return &metav1.List{}, nil
}

type ctxKey struct{}

func TestAdaptersConvertEachHalfLikeClientGo(t *testing.T) {
	ctx := context.WithValue(context.Background(), ctxKey{}, "the caller's")
	drive := func(l interface {
		ListWithContext(context.Context, metav1.ListOptions) (runtime.Object, error)
	}, w interface {
		WatchWithContext(context.Context, metav1.ListOptions) (watch.Interface, error)
	}) {
		l.ListWithContext(ctx, metav1.ListOptions{ResourceVersion: "0"})
		wi, _ := w.WatchWithContext(ctx, metav1.ListOptions{ResourceVersion: "7"})
		wi.Stop()
	}
	for name, pair := range map[string]func(theirs, ours *halfContext){
		"ToListerWatcherWithContext": func(theirs, ours *halfContext) {
			cg := cache.ToListerWatcherWithContext(theirs)
			drive(cg, cg)
			our := listwatch.ToListerWatcherWithContext(ours)
			drive(our, our)
		},
		"ToListerWithContext and ToWatcherWithContext": func(theirs, ours *halfContext) {
			drive(cache.ToListerWithContext(theirs), cache.ToWatcherWithContext(theirs))
			drive(listwatch.ToListerWithContext(ours), listwatch.ToWatcherWithContext(ours))
		},
	} {
		theirs, ours := &halfContext{}, &halfContext{}
		pair(theirs, ours)
		if diff := cmp.Diff(theirs.calls, ours.calls); diff != "" {
			t.Errorf("%s: calls reaching a half-context ListerWatcher (-client-go +ours):\n%s", name, diff)
		}
		if len(theirs.calls) != 2 || !strings.HasPrefix(theirs.calls[0], "ListWithContext") {
			t.Errorf("%s: client-go made %q; the test expects a ListWithContext and a Watch", name, theirs.calls)
		}
	}
}

// says answers IsWatchListSemanticsUnSupported as told.
type says bool

func (s says) IsWatchListSemanticsUnSupported() bool { return bool(s) }

// TestWatchListOptOutMatchesClientGo asks ours and client-go's
// DoesClientNotSupportWatchListSemantics about the same clients, and the
// wrappers each builds about themselves.
func TestWatchListOptOutMatchesClientGo(t *testing.T) {
	real, err := kubernetes.NewForConfig(&rest.Config{Host: "https://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	clients := map[string]any{
		"kubernetes/fake":           fake.NewClientset(),
		"dynamic/fake":              dynamicfake.NewSimpleDynamicClient(runtime.NewScheme()),
		"a real clientset":          real,
		"nil":                       nil,
		"says unsupported":          says(true),
		"says supported":            says(false),
		"a ListWatch, unwrapped":    &listwatch.ListWatch{},
		"client-go's wrapper, fake": cache.ToListWatcherWithWatchListSemantics(&cache.ListWatch{}, fake.NewClientset()),
		"our wrapper, fake":         listwatch.ToListWatcherWithWatchListSemantics(&listwatch.ListWatch{}, fake.NewClientset()),
		"our wrapper, real":         listwatch.ToListWatcherWithWatchListSemantics(&listwatch.ListWatch{}, real),
	}
	for name, client := range clients {
		theirs := watchlist.DoesClientNotSupportWatchListSemantics(client)
		ours := listwatch.DoesClientNotSupportWatchListSemantics(client)
		if theirs != ours {
			t.Errorf("%s: client-go says unsupported=%v, ours %v", name, theirs, ours)
		}
		// Our wrapper answers client-go's question as client-go's own
		// wrapper does: the method is the same.
		if name == "kubernetes/fake" || name == "a real clientset" {
			cgWrapped := cache.ToListWatcherWithWatchListSemantics(&cache.ListWatch{}, client)
			ourWrapped := listwatch.ToListWatcherWithWatchListSemantics(&listwatch.ListWatch{}, client)
			if a, b := watchlist.DoesClientNotSupportWatchListSemantics(cgWrapped), watchlist.DoesClientNotSupportWatchListSemantics(ourWrapped); a != b {
				t.Errorf("%s wrapped: client-go's wrapper says %v, ours %v", name, a, b)
			}
		}
	}
	if !watchlist.DoesClientNotSupportWatchListSemantics(clients["kubernetes/fake"]) {
		t.Errorf("client-go's kubernetes/fake no longer opts out of WatchList: update this test and chapter 01")
	}
}

// A wrapper around a nil ListWatch is an error when used, not a panic.
func TestWrapperAroundANilListWatchIsAnError(t *testing.T) {
	lw := listwatch.ToListerWatcherWithContext(listwatch.ToListWatcherWithWatchListSemantics(nil, fake.NewClientset()))
	if _, err := lw.ListWithContext(context.Background(), metav1.ListOptions{}); err == nil {
		t.Error("List on a wrapper of a nil ListWatch returned no error")
	}
	if _, err := lw.WatchWithContext(context.Background(), metav1.ListOptions{}); err == nil {
		t.Error("Watch on a wrapper of a nil ListWatch returned no error")
	}
}
