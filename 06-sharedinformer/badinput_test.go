package informer_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientfeatures "k8s.io/client-go/features"
	clientfeaturestesting "k8s.io/client-go/features/testing"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	listwatch "informer-from-scratch/01-listwatch"
	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/faultproxy"
	"informer-from-scratch/internal/reqlog"
)

// Bad input from the server, through internal/faultproxy, to client-go's
// informer and ours side by side: each side has a proxy of its own (so
// each meets the fault exactly once), its reflector's errors recorded by
// its watch error handler. Neither may panic (a panic would end the test
// binary), lose an object, or keep a wrong-typed one: each must report the
// error and retry or relist until its cache equals a fresh LIST.

// logCapture records every klog line (Info at verbosity 0, and the errors
// utilruntime.HandleError logs through klog) while a test asks it to, so
// the test can check what each side left in the log. TestMain installs it
// once (klog.SetLogger is not safe while loggers run); captureLogs turns
// it on. Lines carry the reflector's name: ours is named after
// 06-sharedinformer/controller.go, which builds it.
type logCapture struct {
	mu        sync.Mutex
	recording bool
	lines     []string
}

var logs = &logCapture{}

func (c *logCapture) logger() logr.Logger {
	return funcr.New(func(prefix, args string) {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.recording {
			c.lines = append(c.lines, prefix+" "+args)
		}
	}, funcr.Options{Verbosity: 0})
}

func captureLogs(t *testing.T) *logCapture {
	logs.mu.Lock()
	logs.recording, logs.lines = true, nil
	logs.mu.Unlock()
	t.Cleanup(func() {
		logs.mu.Lock()
		logs.recording = false
		logs.mu.Unlock()
	})
	return logs
}

// logged reports whether side's reflector logged a line containing want.
func (c *logCapture) logged(side, want string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, l := range c.lines {
		ours := strings.Contains(l, "06-sharedinformer/controller.go")
		if strings.Contains(l, want) && ours == (side == "ours") {
			return true
		}
	}
	return false
}

// faultySide is one informer behind its own proxy.
type faultySide struct {
	name  string
	proxy *faultproxy.Proxy
	// sent records the informer's requests as its client sends them.
	sent   *reqlog.Recorder
	side   side
	mu     sync.Mutex
	errors []string
	stop   func()
}

func (s *faultySide) recordError(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.errors = append(s.errors, err.Error())
}

func (s *faultySide) sawError(want string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.errors {
		if strings.Contains(e, want) {
			return true
		}
	}
	return false
}

// startFaultySides builds client-go's informer and ours on pods of ns, each
// behind a proxy of its own (proxyOpts), in LIST+WATCH mode unless
// watchList, and lets setup act on each proxy before the informers run.
func startFaultySides(t *testing.T, ctx context.Context, ns string, watchList bool, proxyOpts faultproxy.Options, setup func(*faultySide)) []*faultySide {
	t.Helper()
	clientfeaturestesting.SetFeatureDuringTest(t, clientfeatures.WatchListClient, watchList)
	var sides []*faultySide
	for _, name := range []string{"client-go", "ours"} {
		proxy, err := faultproxy.Start(cluster(t).RESTConfig(), proxyOpts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { proxy.Close() })
		sent := &reqlog.Recorder{}
		client, err := kubernetes.NewForConfig(sent.Wrap(proxy.RESTConfig()))
		if err != nil {
			t.Fatal(err)
		}
		s := &faultySide{name: name, proxy: proxy, sent: sent}
		if name == "client-go" {
			lw := cache.NewFilteredListWatchFromClient(client.CoreV1().RESTClient(), "pods", ns, func(*metav1.ListOptions) {})
			cg := newClientGoShared(lw, 0, false)
			if err := cg.informer.SetWatchErrorHandler(func(_ *cache.Reflector, err error) { s.recordError(err) }); err != nil {
				t.Fatal(err)
			}
			s.side = cg
		} else {
			lw := listwatch.NewFilteredListWatchFromClient(client.CoreV1().RESTClient(), "pods", ns, func(*metav1.ListOptions) {})
			our := newOurShared(lw, 0, false, informer.QueueRealFIFO, nil, ptr.To(watchList))
			if err := our.informer.SetWatchErrorHandler(func(_ *informer.Reflector, err error) { s.recordError(err) }); err != nil {
				t.Fatal(err)
			}
			s.side = our
		}
		if setup != nil {
			setup(s)
		}
		runCtx, cancel := context.WithCancel(ctx)
		var wg sync.WaitGroup
		wg.Go(func() { s.side.run(runCtx) })
		s.stop = func() { cancel(); wg.Wait() }
		t.Cleanup(s.stop)
		sides = append(sides, s)
	}
	return sides
}

// badInputNamespace makes a namespace with three pods.
func badInputNamespace(t *testing.T, ctx context.Context) (string, kubernetes.Interface) {
	t.Helper()
	client, err := kubernetes.NewForConfig(cluster(t).RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	ns := fmt.Sprintf("bad-input-%d", namespaceSeq.Add(1))
	if _, err := client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b", "c"} {
		if _, err := client.CoreV1().Pods(ns).Create(ctx, demo.Pod(ns, name, nil), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return ns, client
}

// requestsUpToLastList is what s's informer sent, as verbs, up to and
// including its last LIST: "LIST", "LIST" for a LIST answered 500 and the
// one that followed it; "LIST", "WATCH", "LIST" for a relist after a
// watch went wrong. The WATCH that follows the LIST a side synced from is
// left out: it is sent right after the LIST, so whether it has been sent
// when the side is seen to have converged is a matter of timing, not of
// the fault. (The proxy's Requests - Watches is no LIST count: Watches
// counts the watches the apiserver has answered, so a watch still waiting
// for its headers counted as a LIST; on a loaded machine that made either
// side, client-go's as often as ours, look as if it had listed once more.)
func requestsUpToLastList(s *faultySide) []string {
	var verbs []string
	last := 0
	for _, r := range s.sent.Requests() {
		v := r.Verb()
		if v == "WATCH" && r.Query.Get("sendInitialEvents") == "true" {
			v = "WATCH sendInitialEvents" // a WatchList stream
		}
		verbs = append(verbs, v)
		if v == "LIST" {
			last = len(verbs)
		}
	}
	return verbs[:last]
}

// converges waits until s's cache equals a fresh LIST of ns's pods.
func converges(t *testing.T, ctx context.Context, client kubernetes.Interface, ns string, s *faultySide, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		list, err := client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		truth := map[string]string{}
		for _, p := range list.Items {
			truth[p.Namespace+"/"+p.Name] = p.ResourceVersion
		}
		diff := cmp.Diff(truth, s.side.cache())
		if diff == "" && s.side.hasSynced() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not equal to a fresh LIST after %s (synced %v; errors %q) (-server +%s):\n%s", s.name, within, s.side.hasSynced(), s.errors, s.name, diff)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestBadInputFromTheServer(t *testing.T) {
	for _, tc := range []struct {
		name      string
		kind      faultproxy.Kind
		watchList bool
		// afterSync: the fault is injected once both have synced, and a
		// pod created then must still arrive; else before they start.
		afterSync bool
		// wantErr is what each side's watch error handler must be told.
		wantErr string
	}{
		{"malformed object in a LIST", faultproxy.Malformed, false, false, "unexpected end of JSON input"},
		{"wrong-typed field in a LIST", faultproxy.WrongType, false, false, "cannot unmarshal number"},
		{"a 500 answers the LIST", faultproxy.ServerError, false, false, "an internal error, injected"},
		{"malformed object in a watch event", faultproxy.Malformed, false, true, "unable to decode an event from the watch stream"},
		// client-go logs this only at verbosity 4 and falls back to a LIST:
		// the LIST is its trace (compared below).
		{"malformed object in a WatchList stream", faultproxy.Malformed, true, false, ""},
		// Decodes, to another type: both reflectors skip it with a log line
		// (not a ListAndWatch error); the real event follows it.
		{"object of another kind in a watch event", faultproxy.WrongType, false, true, ""},
		// client-go logs a 410 only at verbosity 4: the relist is its trace.
		{"410 Gone ends the watch", faultproxy.Gone, false, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			logs := captureLogs(t)
			ns, client := badInputNamespace(t, ctx)
			sides := startFaultySides(t, ctx, ns, tc.watchList, faultproxy.Options{Seed: 14, Spread: 1}, func(s *faultySide) {
				if !tc.afterSync {
					s.proxy.Inject(tc.kind)
				}
			})
			if tc.afterSync {
				for _, s := range sides {
					converges(t, ctx, client, ns, s, 30*time.Second)
					// A watch younger than a second that ends with no event
					// is a "very short watch", which relists: let it age.
					time.Sleep(1100 * time.Millisecond)
					s.proxy.Inject(tc.kind)
				}
				if _, err := client.CoreV1().Pods(ns).Create(ctx, demo.Pod(ns, "after", nil), metav1.CreateOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			outcome, sent := map[string]string{}, map[string][]string{}
			for _, s := range sides {
				converges(t, ctx, client, ns, s, 30*time.Second)
				st := s.proxy.Stats()
				outcome[s.name] = fmt.Sprintf("fault hit %d times; error reported: %v", st.Faults[tc.kind], tc.wantErr == "" || s.sawError(tc.wantErr) || logs.logged(s.name, tc.wantErr))
				sent[s.name] = requestsUpToLastList(s)
			}
			if diff := cmp.Diff(sent["client-go"], sent["ours"]); diff != "" {
				t.Errorf("requests up to the last LIST (-client-go +ours):\n%s", diff)
			}
			want := fmt.Sprintf("fault hit 1 times; error reported: %v", true)
			if diff := cmp.Diff(map[string]string{"client-go": want, "ours": want}, outcome); diff != "" {
				t.Errorf("(-want +got):\n%s\nerrors: client-go %q, ours %q\nlog:\n%s", diff, sides[0].errors, sides[1].errors, strings.Join(logs.lines, "\n"))
			}
		})
	}
}

// TestUnreachableThenReachableServer: both informers start while nothing
// listens (the proxy disconnected, as a server that is down): neither
// syncs, and once the server is back both sync to a fresh LIST. In
// LIST+WATCH mode the failed LIST reaches the watch error handler
// (client-go's default one logs "Failed to watch"); in WatchList mode
// client-go backs off inside its watch-list loop and logs that only at
// verbosity 2: ours must do what client-go does, in both.
func TestUnreachableThenReachableServer(t *testing.T) {
	for _, watchList := range []bool{false, true} {
		t.Run(fmt.Sprintf("WatchList=%v", watchList), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			logs := captureLogs(t)
			ns, client := badInputNamespace(t, ctx)
			sides := startFaultySides(t, ctx, ns, watchList, faultproxy.Options{}, func(s *faultySide) { s.proxy.Disconnect() })
			time.Sleep(2 * time.Second)
			outcome := map[string]string{}
			for _, s := range sides {
				outcome[s.name] = fmt.Sprintf("synced %v, reported connection refused %v", s.side.hasSynced(), s.sawError("connection refused") || logs.logged(s.name, "connection refused"))
				if err := s.proxy.Reconnect(); err != nil {
					t.Fatal(err)
				}
			}
			if diff := cmp.Diff(outcome["client-go"], outcome["ours"]); diff != "" {
				t.Errorf("while unreachable (-client-go +ours):\n%s", diff)
			}
			if want := "synced false, reported connection refused true"; !watchList && outcome["ours"] != want {
				t.Errorf("while unreachable, ours: %s; want %s", outcome["ours"], want)
			}
			for _, s := range sides {
				converges(t, ctx, client, ns, s, time.Minute)
			}
		})
	}
}

// TestContextCancelledMidList: the first LIST is held by the proxy, and
// the informer's context is cancelled while it waits. Run must return
// promptly, unsynced, and leave nothing running (TestMain's goleak).
func TestContextCancelledMidList(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ns, _ := badInputNamespace(t, ctx)
	sides := startFaultySides(t, ctx, ns, false, faultproxy.Options{Spread: 1, StallFor: 30 * time.Second}, func(s *faultySide) {
		s.proxy.Inject(faultproxy.Stall)
	})
	for _, s := range sides {
		for s.proxy.Stats().Faults[faultproxy.Stall] == 0 {
			time.Sleep(20 * time.Millisecond) // the LIST has reached the proxy
		}
	}
	outcome := map[string]string{}
	for _, s := range sides {
		start := time.Now()
		s.stop()
		took := time.Since(start)
		outcome[s.name] = fmt.Sprintf("synced %v, stopped within 5s %v", s.side.hasSynced(), took < 5*time.Second)
	}
	want := "synced false, stopped within 5s true"
	if diff := cmp.Diff(map[string]string{"client-go": want, "ours": want}, outcome); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
