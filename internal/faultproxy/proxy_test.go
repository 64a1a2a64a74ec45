package faultproxy_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"informer-from-scratch/internal/faultproxy"
	"informer-from-scratch/internal/playground"
	"informer-from-scratch/internal/testenv"
)

// TestMain: testenv.Main silences klog, stops the playground the tests
// share, and fails the package if a test left a goroutine behind.
func TestMain(m *testing.M) { testenv.Main(m, testenv.Options{}) }

func cluster(t *testing.T) *playground.Cluster { return testenv.Cluster(t) }

// through starts a proxy (Spread 1, a short stall) and a client-go
// clientset that goes through it; ct, if set, is the client's content type.
func through(t *testing.T, ct string) (*faultproxy.Proxy, kubernetes.Interface, *[]faultproxy.Fault) {
	t.Helper()
	var mu sync.Mutex
	var faults []faultproxy.Fault
	p, err := faultproxy.Start(cluster(t).RESTConfig(), faultproxy.Options{
		Seed: 1, Spread: 1, StallFor: 700 * time.Millisecond,
		OnFault: func(f faultproxy.Fault) { mu.Lock(); faults = append(faults, f); mu.Unlock() },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	cfg := p.RESTConfig()
	if ct != "" {
		cfg.ContentConfig = rest.ContentConfig{ContentType: ct, AcceptContentTypes: ct}
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p, client, &faults
}

func seedConfigMaps(t *testing.T, ctx context.Context, client kubernetes.Interface, n int) {
	t.Helper()
	for i := range n {
		_, err := client.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("proxy-test-%d", i)}}, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
	}
}

// TestRequestFaultsAsClientGoSeesThem injects each fault that answers a
// LIST, and checks what client-go's own rest client makes of it: the error
// a reflector would get (and retry after), or a success after a wait.
func TestRequestFaultsAsClientGoSeesThem(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		kind faultproxy.Kind
		// want is a piece of the error, or "" for a LIST that succeeds.
		want     string
		minTaken time.Duration
	}{
		// The rest client honours Retry-After on a 429 by itself: the
		// reflector never sees it.
		{faultproxy.TooManyRequests, "", time.Second},
		{faultproxy.ServerError, "an internal error, injected", 0},
		{faultproxy.Stall, "", 700 * time.Millisecond},
		{faultproxy.Malformed, "unexpected end of JSON input", 0},
		{faultproxy.WrongType, "cannot unmarshal number into Go struct field ObjectMeta.items.metadata.name of type string", 0},
	} {
		t.Run(string(tc.kind), func(t *testing.T) {
			p, client, faults := through(t, "")
			seedConfigMaps(t, ctx, client, 3)
			if err := p.Inject(tc.kind); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			list, err := listJSON(ctx, client)
			taken := time.Since(start)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("LIST failed: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("LIST error %v, want one containing %q", err, tc.want)
			case tc.want == "" && len(list.Items) < 3:
				t.Errorf("LIST gave %d items, want at least 3", len(list.Items))
			}
			if taken < tc.minTaken {
				t.Errorf("LIST took %s, want at least %s", taken, tc.minTaken)
			}
			if got := p.Stats().Faults[tc.kind]; got != 1 {
				t.Errorf("%d %s faults counted, want 1: %v", got, tc.kind, *faults)
			}
			// The fault is used up: the next LIST is clean.
			if _, err := listJSON(ctx, client); err != nil {
				t.Errorf("the LIST after the fault: %v", err)
			}
		})
	}
}

// TestWatchFaultsAsClientGoSeesThem opens a watch through the proxy with
// client-go's client, injects each watch fault and reads what the watch
// delivers, event type and object type, up to its end.
func TestWatchFaultsAsClientGoSeesThem(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		kind faultproxy.Kind
		want []string
	}{
		// An abrupt end: the channel closes, no error event.
		{faultproxy.CutWatch, []string{"ADDED *v1.ConfigMap", "closed"}},
		{faultproxy.Gone, []string{"ADDED *v1.ConfigMap", "ERROR 410 Expired", "closed"}},
		{faultproxy.Malformed, []string{"ERROR 500 InternalError: unable to decode an event from the watch stream", "closed"}},
		// The copy of another kind decodes, to the wrong Go type, and the
		// real event follows it.
		{faultproxy.WrongType, []string{"ADDED *v1.Secret", "ADDED *v1.ConfigMap"}},
		{faultproxy.Stall, []string{"ADDED *v1.ConfigMap"}},
	} {
		t.Run(string(tc.kind), func(t *testing.T) {
			p, client, _ := through(t, "")
			cms := client.CoreV1().ConfigMaps("default")
			name := "watched-" + string(tc.kind)
			cms.Delete(ctx, name, metav1.DeleteOptions{})
			w, err := watchJSON(ctx, client, metav1.ListOptions{FieldSelector: "metadata.name=" + name})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Stop()
			waitStreams(t, p, 1)
			if tc.kind != faultproxy.CutWatch && tc.kind != faultproxy.Gone {
				p.Inject(tc.kind)
			}
			start := time.Now()
			if _, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			var got []string
			if tc.kind == faultproxy.CutWatch || tc.kind == faultproxy.Gone {
				got = append(got, next(w, 10*time.Second))
				p.Inject(tc.kind)
			}
			for len(got) < len(tc.want) {
				got = append(got, next(w, 10*time.Second))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("what client-go's watch delivered (-want +got):\n%s", diff)
			}
			if tc.kind == faultproxy.Stall && time.Since(start) < 700*time.Millisecond {
				t.Errorf("a stalled watch delivered after %s, want at least 700ms", time.Since(start))
			}
			// A stall also holds the next request (the create).
			if got := p.Stats().Faults[tc.kind]; got < 1 {
				t.Errorf("%d %s faults counted, want at least 1", got, tc.kind)
			}
		})
	}
}

// listJSON lists configmaps as an informer's ListWatch does: through the
// RESTClient, which asks for JSON (the generated typed clients ask for
// protobuf).
func listJSON(ctx context.Context, client kubernetes.Interface) (*corev1.ConfigMapList, error) {
	list := &corev1.ConfigMapList{}
	err := client.CoreV1().RESTClient().Get().Namespace("default").Resource("configmaps").Do(ctx).Into(list)
	return list, err
}

// watchJSON watches configmaps as an informer's ListWatch does.
func watchJSON(ctx context.Context, client kubernetes.Interface, opts metav1.ListOptions) (watch.Interface, error) {
	opts.Watch = true
	return client.CoreV1().RESTClient().Get().Namespace("default").Resource("configmaps").
		VersionedParams(&opts, metav1.ParameterCodec).Watch(ctx)
}

// next describes a watch's next event, "closed", or "timeout".
func next(w watch.Interface, d time.Duration) string {
	select {
	case e, ok := <-w.ResultChan():
		if !ok {
			return "closed"
		}
		if e.Type == watch.Error {
			st := apierrors.FromObject(e.Object).(apierrors.APIStatus).Status()
			msg := ""
			if st.Code != 410 {
				// "an error on the server ("unable to ...: <decoder's error>")"
				_, msg, _ = strings.Cut(st.Message, `("`)
				msg, _, _ = strings.Cut(msg, ":")
				msg = ": " + msg
			}
			return fmt.Sprintf("ERROR %d %s%s", st.Code, st.Reason, msg)
		}
		return fmt.Sprintf("%s %T", e.Type, e.Object)
	case <-time.After(d):
		return "timeout"
	}
}

func waitStreams(t *testing.T, p *faultproxy.Proxy, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); p.Stats().Watches < n; {
		if time.Now().After(deadline) {
			t.Fatalf("%d watches open, want %d", p.Stats().Watches, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestProtobufIsPassedThrough: a client that asks for protobuf (client-go
// v0.37's generated typed clients do, unless told otherwise) gets the
// apiserver's answer untouched, and a body fault is counted as skipped.
func TestProtobufIsPassedThrough(t *testing.T) {
	ctx := context.Background()
	p, client, _ := through(t, "")
	seedConfigMaps(t, ctx, client, 1)
	p.Inject(faultproxy.Malformed)
	if _, err := client.CoreV1().ConfigMaps("default").List(ctx, metav1.ListOptions{}); err != nil {
		t.Fatalf("a protobuf LIST through the proxy: %v", err)
	}
	s := p.Stats()
	if s.Skipped[faultproxy.Malformed] != 1 || s.Faults[faultproxy.Malformed] != 0 {
		t.Errorf("Malformed on protobuf: %d applied, %d skipped; want 0 and 1", s.Faults[faultproxy.Malformed], s.Skipped[faultproxy.Malformed])
	}
}

// TestUnreachableIsA502: with the apiserver gone, a request gets a 502 whose
// message says so, not a hang.
func TestUnreachableIsA502(t *testing.T) {
	cfg := cluster(t).RESTConfig()
	cfg.Host = "https://127.0.0.1:1" // nothing listens there
	p, err := faultproxy.Start(cfg, faultproxy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	client, err := kubernetes.NewForConfig(p.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.CoreV1().ConfigMaps("default").List(context.Background(), metav1.ListOptions{})
	if err == nil || !strings.Contains(err.Error(), "the apiserver is unreachable") {
		t.Errorf("got %v, want the proxy's 502 naming the unreachable apiserver", err)
	}
	if p.Stats().Unreachable != 1 {
		t.Errorf("Unreachable = %d, want 1", p.Stats().Unreachable)
	}
}

func TestInjectRefusesThePlaygroundsFaults(t *testing.T) {
	p, err := faultproxy.Start(&rest.Config{Host: "https://127.0.0.1:1"}, faultproxy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, k := range []faultproxy.Kind{faultproxy.Compact, faultproxy.Restart, "nonsense"} {
		if err := p.Inject(k); err == nil {
			t.Errorf("Inject(%q): want an error", k)
		}
	}
}

func TestPlanIsTheSeeds(t *testing.T) {
	a := faultproxy.Plan(7, time.Minute, 2*time.Second, faultproxy.AllKinds)
	b := faultproxy.Plan(7, time.Minute, 2*time.Second, faultproxy.AllKinds)
	c := faultproxy.Plan(8, time.Minute, 2*time.Second, faultproxy.AllKinds)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("the same seed gave two plans:\n%s", diff)
	}
	if cmp.Equal(a, c) {
		t.Error("seeds 7 and 8 gave the same plan")
	}
	if len(a) < 20 || len(a) > 60 {
		t.Errorf("%d faults in a minute at one per 2s on average", len(a))
	}
	seen := map[faultproxy.Kind]bool{}
	for _, f := range a[:len(faultproxy.AllKinds)] {
		seen[f.Kind] = true
	}
	if len(seen) != len(faultproxy.AllKinds) {
		t.Errorf("the first %d faults are not one of each kind: %v", len(faultproxy.AllKinds), a[:len(faultproxy.AllKinds)])
	}
	for i := 1; i < len(a); i++ {
		if gap := a[i].At - a[i-1].At; gap < time.Second || gap > 3*time.Second {
			t.Errorf("fault %d comes %s after the one before, want 1s to 3s", i, gap)
		}
	}
}

// TestDisconnectRefusesLikeAStoppedServer: while disconnected, an open
// watch has ended and a new request's connection is refused (what a
// reflector sees of a restarting apiserver, and retries without a relist);
// after Reconnect the same address answers again.
func TestDisconnectRefusesLikeAStoppedServer(t *testing.T) {
	ctx := context.Background()
	p, client, _ := through(t, "")
	w, err := watchJSON(ctx, client, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	waitStreams(t, p, 1)
	if err := p.Disconnect(); err != nil {
		t.Fatal(err)
	}
	for got := ""; got != "closed"; {
		if got = next(w, 10*time.Second); got == "timeout" {
			t.Fatal("the open watch did not end on Disconnect")
		}
	}
	_, err = listJSON(ctx, client)
	if !utilnet.IsConnectionRefused(err) {
		t.Errorf("a LIST while disconnected: %v, want connection refused", err)
	}
	if err := p.Reconnect(); err != nil {
		t.Fatal(err)
	}
	if _, err := listJSON(ctx, client); err != nil {
		t.Errorf("a LIST after Reconnect: %v", err)
	}
}
