package reflector_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
	corev1 "k8s.io/api/core/v1"
	clientfeatures "k8s.io/client-go/features"
	clientfeaturestesting "k8s.io/client-go/features/testing"
	clocktesting "k8s.io/utils/clock/testing"

	reflector "informer-from-scratch/02-reflector"
)

// TestInjectedClockDrivesBackoffAndResync gives both reflectors a fake clock
// and shows that the watch backoff and the resync wait for it: an hour of
// (virtual) real time changes nothing, a step of the fake clock does.
func TestInjectedClockDrivesBackoffAndResync(t *testing.T) {
	sc := scenario{
		resync:  30 * time.Second,
		lists:   []listReply{{list: podList("10", "", pod("a", "5"))}},
		watches: []watchReply{{err: errBusy}},
	}
	clientfeaturestesting.SetFeatureDuringTest(t, clientfeatures.WatchListClient, false)
	var logs [2][]entry
	for i, s := range []side{clientGo, ours} {
		synctest.Test(t, func(t *testing.T) {
			rec := newRecorder()
			fc := clocktesting.NewFakeClock(epoch)
			lw := newScriptLW(sc, rec)
			r := newReflectorWithClock(s, sc, lw, newRecStore(sc, rec), fc)
			ctx, cancel := context.WithCancel(recordingContext(rec))
			done := make(chan struct{})
			go func() {
				defer close(done)
				r.RunWithContext(ctx)
			}()
			phase := func(name string, do func()) {
				do()
				synctest.Wait()
				rec.add(entry{Call: "--- " + name})
			}
			phase("started", func() {})
			phase("an hour of real time later", func() { time.Sleep(time.Hour) })
			phase("fake clock +800ms (the first backoff)", func() { fc.Step(800 * time.Millisecond) })
			phase("fake clock +30s (the resync period)", func() { fc.Step(30 * time.Second) })
			clearTimes(rec.entries)
			logs[i] = rec.close()
			cancel()
			<-done
			lw.leftOpen()
		})
	}
	t.Logf("client-go did:\n%s", logString(logs[0]))
	if diff := diffEntries(logs[0], logs[1]); diff != "" {
		t.Errorf("the reflectors followed the fake clock differently (-client-go +ours):\n%s\nclient-go did:\n%s", diff, logString(logs[0]))
	}
}

// TestWatchTimeoutHonoursMinWatchTimeout checks both reflectors' random watch
// timeouts against client-go's rule: [max(5m, MinWatchTimeout), twice that).
func TestWatchTimeoutHonoursMinWatchTimeout(t *testing.T) {
	for _, min := range []time.Duration{0, time.Second, 30 * time.Minute} {
		t.Run(fmt.Sprint(min), func(t *testing.T) {
			for _, watchList := range []bool{false, true} {
				runBoth(t, scenario{
					watchList:       watchList,
					minWatchTimeout: min,
					lists:           []listReply{{list: podList("10", "")}},
					watches:         []watchReply{{events: []timedEvent{initialEventsEnd("10"), added(pod("a", "11"))}}},
				})
			}
		})
	}
}

// TestListAndWatchReturnsWhatClientGoReturns calls ListAndWatchWithContext
// once on each reflector and compares what it returns and what it did. In
// the scenarios that cancel, the context is cancelled once the script is
// used up (a LIST or a WATCH left waiting), and what the reflector does on
// its way out is compared too: no request once the context is done, and
// nothing reported or logged for a cancel.
func TestListAndWatchReturnsWhatClientGoReturns(t *testing.T) {
	first := listReply{list: podList("10", "", pod("a", "5"))}
	scenarios := []struct {
		scenario
		cancel bool
	}{
		{scenario: scenario{name: "a failed list", lists: []listReply{{err: errInternal}}}},
		{scenario: scenario{name: "a refused watch request", lists: []listReply{first}, watches: []watchReply{{err: errForbid}}}},
		{scenario: scenario{name: "a watch ended by 410", lists: []listReply{first}, watches: []watchReply{{events: []timedEvent{errorEvent(errExpired)}}}}},
		{scenario: scenario{name: "a very short watch", lists: []listReply{first}, watches: []watchReply{{}}}},
		{scenario: scenario{name: "WatchList refused, then the fallback list fails", watchList: true, lists: []listReply{{err: errBusy}}, watches: []watchReply{{err: errForbid}}}},
		{scenario: scenario{name: "WatchList synced, then a refused watch", watchList: true, watches: []watchReply{
			{events: []timedEvent{added(pod("a", "5")), initialEventsEnd("10"), added(pod("b", "11"))}}, {err: errForbid},
		}}},
		{scenario: scenario{name: "cancelled during the LIST: nil, and no watch"}, cancel: true},
		{scenario: scenario{name: "cancelled while watching: nil, and nothing logged", lists: []listReply{first}}, cancel: true},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			clientfeaturestesting.SetFeatureDuringTest(t, clientfeatures.WatchListClient, sc.watchList)
			var logs [2][]entry
			for i, s := range []side{clientGo, ours} {
				synctest.Test(t, func(t *testing.T) {
					rec := newRecorder()
					lw := newScriptLW(sc.scenario, rec)
					r := newReflector(s, sc.scenario, lw, newRecStore(sc.scenario, rec))
					ctx, cancel := context.WithCancel(recordingContext(rec))
					defer cancel()
					returned := make(chan struct{})
					if sc.cancel {
						go func() {
							t := time.NewTimer(scriptDeadline)
							defer t.Stop()
							select {
							case <-returned:
								return // it did not wait for the cancel
							case <-lw.exhausted:
							case <-t.C:
							}
							synctest.Wait()
							rec.add(entry{Call: "--- cancel"})
							cancel()
						}()
					}
					err := r.ListAndWatchWithContext(ctx)
					close(returned)
					rec.add(entry{Call: "returned", Arg: fmt.Sprint(err)})
					if n := lw.leftOpen(); n > 0 {
						rec.add(entry{Call: "left open", Arg: fmt.Sprintf("%d watches", n)})
					}
					logs[i] = rec.close()
				})
			}
			if diff := diffEntries(logs[0], logs[1]); diff != "" {
				t.Errorf("ListAndWatchWithContext differs (-client-go +ours):\n%s", diff)
			}
		})
	}
}

// TestWatchErrorHandlerHearsWhatClientGoReports installs our own handler and
// checks it receives exactly the errors client-go's DefaultWatchErrorHandler
// reports (as "Failed to watch") for the same script.
func TestWatchErrorHandlerHearsWhatClientGoReports(t *testing.T) {
	sc := scenario{
		lists:   []listReply{{err: errInternal}, {list: pod("x", "1")}, {list: podList("10", "")}, {list: podList("20", "")}},
		watches: []watchReply{{err: errForbid}},
	}
	clientfeaturestesting.SetFeatureDuringTest(t, clientfeatures.WatchListClient, false)
	cg := run(t, clientGo, sc)
	var want []string
	for _, e := range cg.Log {
		if e.Call == "HandleError" {
			want = append(want, e.Arg)
		}
	}

	if len(want) == 0 {
		t.Fatal("client-go's handler reported nothing: the script does not exercise it")
	}
	var got []string
	// Errors inside the bubble would end the test before the diff: the
	// bubble only records, the checks come after.
	var usedUp bool
	synctest.Test(t, func(t *testing.T) {
		rec := newRecorder()
		lw := newScriptLW(sc, rec)
		r := reflector.NewReflectorWithOptions(lw, &corev1.Pod{}, newRecStore(sc, rec), reflector.ReflectorOptions{UseWatchList: new(bool)})
		if err := r.SetWatchErrorHandlerWithContext(nil); err == nil {
			t.Error("a nil handler was accepted")
		}
		err := r.SetWatchErrorHandler(func(_ *reflector.Reflector, err error) {
			got = append(got, "Failed to watch: "+err.Error())
		})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			r.RunWithContext(ctx)
		}()
		usedUp = lw.usedUp()
		synctest.Wait()
		if err := r.SetWatchErrorHandlerWithContext(reflector.DefaultWatchErrorHandler); err == nil {
			t.Error("the handler could be changed while the reflector runs")
		}
		cancel()
		<-done
		lw.leftOpen()
	})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("handled errors differ (-client-go's default handler +our handler):\n%s\nclient-go did:\n%s", diff, logString(cg.Log))
	}
	if !usedUp {
		t.Errorf("our reflector stopped asking before it had used up the script (%d LISTs, %d WATCHes)", len(sc.lists), len(sc.watches))
	}
}

// TestMissingStoreOrListerWatcherIsAnError: client-go would panic on a nil
// pointer; ours reports it through the error handler and keeps its promise
// of never panicking on bad input.
func TestMissingStoreOrListerWatcherIsAnError(t *testing.T) {
	lw := newScriptLW(scenario{}, newRecorder())
	for name, r := range map[string]*reflector.Reflector{
		"no store":         reflector.NewReflectorWithOptions(lw, &corev1.Pod{}, nil, reflector.ReflectorOptions{Name: "r"}),
		"no ListerWatcher": reflector.NewReflectorWithOptions(nil, &corev1.Pod{}, newRecStore(scenario{}, newRecorder()), reflector.ReflectorOptions{Name: "r"}),
	} {
		err := r.ListAndWatchWithContext(context.Background())
		if err == nil {
			t.Errorf("%s: ListAndWatch returned nil", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}

// TestNameAndTypeDescriptionMatchClientGo compares what each reflector calls
// itself and what it says it stores.
func TestNameAndTypeDescriptionMatchClientGo(t *testing.T) {
	for _, expected := range []any{nil, &corev1.Pod{}, unstructuredOf("", "", "", ""), unstructuredOf("apps/v1", "Deployment", "", "")} {
		lw := newScriptLW(scenario{}, newRecorder())
		store := newRecStore(scenario{}, newRecorder())
		cg := newReflector(clientGo, scenario{expectedType: expected, noType: expected == nil}, lw, store)
		our := newReflector(ours, scenario{expectedType: expected, noType: expected == nil}, lw, store)
		if cg.TypeDescription() != our.TypeDescription() || cg.Name() != our.Name() {
			t.Errorf("for %T: client-go is %q describing %q, ours is %q describing %q",
				expected, cg.Name(), cg.TypeDescription(), our.Name(), our.TypeDescription())
		}
	}
}

// TestCancelLeavesNoGoroutineBehind runs both reflectors on the real clock
// and cancels them at different moments: while a LIST is in flight, while
// watching (with a resync timer running), during the backoff after a failed
// list, and while a WatchList stream is open. Run must return, and leave no
// goroutine behind.
func TestCancelLeavesNoGoroutineBehind(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	first := listReply{list: podList("10", "", pod("a", "5"))}
	moments := []struct {
		name string
		sc   scenario
		// atFirstCall cancels at the first request instead of when the
		// script is used up.
		atFirstCall bool
	}{
		{name: "during a LIST", sc: scenario{}},
		{name: "while watching, resync running", sc: scenario{lists: []listReply{first}, resync: 5 * time.Millisecond}},
		{name: "during the backoff after a failed LIST", sc: scenario{lists: []listReply{{err: errInternal}}}, atFirstCall: true},
		{name: "while a WatchList stream is open", sc: scenario{watchList: true}},
	}
	for _, m := range moments {
		t.Run(m.name, func(t *testing.T) {
			clientfeaturestesting.SetFeatureDuringTest(t, clientfeatures.WatchListClient, m.sc.watchList)
			for _, s := range []side{clientGo, ours} {
				lw := newScriptLW(m.sc, newRecorder())
				r := newReflector(s, m.sc, lw, newRecStore(m.sc, newRecorder()))
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan struct{})
				go func() {
					defer close(done)
					r.RunWithContext(ctx)
				}()
				if m.atFirstCall {
					<-lw.called
				} else {
					<-lw.exhausted
				}
				cancel()
				select {
				case <-done:
				case <-time.After(time.Minute):
					t.Fatalf("%s: Run did not return within a minute of the cancel", s)
				}
			}
		})
	}
}
