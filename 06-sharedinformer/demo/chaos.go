// Not a mirror of client-go: --chaos, the demo's informer behind
// internal/faultproxy, meeting a cut watch, a 410 Gone and a restart of the
// apiserver, each on the timeline with what the reflector does about it.

package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"k8s.io/client-go/kubernetes"

	"informer-from-scratch/06-sharedinformer/observe"
	"informer-from-scratch/internal/faultproxy"
	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/reqlog"
)

// chaosFlag is --chaos.
var chaosFlag bool

// faults is the proxy and what the demo waits on: the informer's requests.
type faults struct {
	proxy *faultproxy.Proxy
	mu    sync.Mutex
	reqs  []reqlog.Request
}

// startProxy puts the fault proxy between the informer and the playground,
// and returns the informer's client, going through it.
func (s *script) startProxy() (kubernetes.Interface, error) {
	if !s.env.OnPlayground() {
		return nil, lang.Errorf(sayChaosNeedsPlayground)
	}
	s.faults = &faults{}
	proxy, err := faultproxy.Start(s.env.Cluster.RESTConfig(), faultproxy.Options{Seed: 6, OnFault: func(f faultproxy.Fault) {
		protocol, why := faultDetail(f)
		s.tl.Event("fault", string(f.Kind), f.Resource, protocol, why...)
	}})
	if err != nil {
		return nil, err
	}
	s.faults.proxy = proxy
	s.tl.Note(sayChaosProxy, proxy.URL)
	return s.env.TimelineClientFor(proxy.RESTConfig(), func(r reqlog.Request) {
		s.faults.mu.Lock()
		s.faults.reqs = append(s.faults.reqs, r)
		s.faults.mu.Unlock()
	})
}

// chaos is the three faults, one step each.
func (s *script) chaos() error {
	defer s.faults.proxy.Close()

	s.tl.Step(sayChaos1Title, sayChaos1Why)
	for _, change := range []string{"before the cut", "after the cut"} {
		mark, reqs := s.trail.mark(), s.requests()
		if err := s.label("web-1"); err != nil {
			return err
		}
		if err := s.trail.waitFor(s.env.Ctx, mark, "web-1's update "+change, changed(s.ns+"/web-1")); err != nil {
			return err
		}
		if change == "after the cut" {
			break
		}
		if err := s.faults.proxy.Inject(faultproxy.CutWatch); err != nil {
			return err
		}
		if err := s.waitRequest(reqs, "the reflector's next watch", isResume); err != nil {
			return err
		}
	}

	s.tl.Step(sayChaos2Title, sayChaos2Why)
	mark := s.trail.mark()
	if err := s.faults.proxy.Inject(faultproxy.Gone); err != nil {
		return err
	}
	if err := s.trail.waitFor(s.env.Ctx, mark, "the relist after the 410", step(observe.LayerReflector, "Replace", "")); err != nil {
		return err
	}
	// The reflector's Replace is where the relist begins, not where it
	// ends: let the queue, the cache and every handler print theirs under
	// this step's heading rather than the next one's.
	s.trail.settle(s.env.Ctx, 300*time.Millisecond)

	s.tl.Step(sayChaos3Title, sayChaos3Why)
	// A change first: a watch that ends within a second of its start with
	// no event on it would be a "very short watch", and relist.
	mark = s.trail.mark()
	if err := s.label("web-1"); err != nil {
		return err
	}
	if err := s.trail.waitFor(s.env.Ctx, mark, "web-1's update before the restart", changed(s.ns+"/web-1")); err != nil {
		return err
	}
	reqs := s.requests()
	start := time.Now()
	s.tl.Event("demo", "RESTART", "kube-apiserver", "", sayRestarting)
	// The proxy goes down with it: the informer's connections are refused,
	// as they would be without a proxy.
	if err := s.faults.proxy.Disconnect(); err != nil {
		return err
	}
	err := s.env.Cluster.RestartAPIServer(s.env.Ctx)
	if rerr := s.faults.proxy.Reconnect(); err == nil {
		err = rerr
	}
	if err != nil {
		return err
	}
	s.tl.Event("demo", "READY", "kube-apiserver", "", sayBackAfter.Format(time.Since(start).Round(100*time.Millisecond)))
	mark = s.trail.mark()
	if err := s.create("web-6"); err != nil {
		return err
	}
	if err := s.trail.waitFor(s.env.Ctx, mark, "web-6's add at the handlers", step(observe.LayerHandler, "OnAdd", s.ns+"/web-6")); err != nil {
		return err
	}
	if err := s.waitRequest(reqs, "a watch after the restart", isResume); err != nil {
		return err
	}
	st := s.faults.proxy.Stats()
	s.tl.Note(sayProxyStats, st.Requests, st.Faults)
	s.showCache()
	return nil
}

// settle waits until no observation has arrived for quietFor (at most 5s),
// so that the rows a change set off are printed before the next heading.
func (t *trail) settle(ctx context.Context, quietFor time.Duration) {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		t.mu.Lock()
		changed := t.changed
		t.mu.Unlock()
		select {
		case <-changed:
		case <-time.After(quietFor):
			return
		case <-ctx.Done():
			return
		}
	}
}

// changed matches a handler's update of key that is a change, not a sync
// (a relist just before delivers those too).
func changed(key string) func(observe.Observation) bool {
	return func(o observe.Observation) bool {
		return o.Layer == observe.LayerHandler && o.Op == "OnUpdate" && o.Key == key && !o.Sync
	}
}

func (s *script) requests() int {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	return len(s.faults.reqs)
}

// isResume matches a watch that resumes from a resourceVersion, not a
// WatchList stream (which would be a relist).
func isResume(r reqlog.Request) bool {
	return r.Query.Get("watch") == "true" && r.Query.Get("sendInitialEvents") != "true"
}

// waitRequest waits for a request after position since that matches.
func (s *script) waitRequest(since int, what string, match func(reqlog.Request) bool) error {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		s.faults.mu.Lock()
		for _, r := range s.faults.reqs[since:] {
			if match(r) {
				s.faults.mu.Unlock()
				return nil
			}
		}
		s.faults.mu.Unlock()
		select {
		case <-s.env.Ctx.Done():
			return s.env.Ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return fmt.Errorf("waited 30s for %s", what)
}

// faultDetail is a fault's row: what the proxy did to the protocol, and
// what that means, for the two faults --chaos injects; any other fault as
// the proxy says it.
func faultDetail(f faultproxy.Fault) (string, []lang.Text) {
	var n int
	switch {
	case f.Kind == faultproxy.CutWatch:
		if _, err := fmt.Sscanf(f.Detail, "connection aborted after %d events", &n); err == nil {
			return "", []lang.Text{sayCutAfter.Format(n)}
		}
	case f.Kind == faultproxy.Gone:
		if _, err := fmt.Sscanf(f.Detail, "ERROR 410 Expired after %d events", &n); err == nil {
			return "ERROR 410 Expired", []lang.Text{sayGoneAfter.Format(n)}
		}
	}
	return f.Detail, nil
}
