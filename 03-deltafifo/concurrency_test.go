package deltafifo

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
	"k8s.io/client-go/tools/cache"
)

// queueMakers are the four queues the concurrency tests run: each kind, as
// client-go builds it and as we do.
var queueMakers = []struct {
	name           string
	config         fifoConfig
	clientGo, ours func(fifoConfig) *queueUnderTest
}{
	{"DeltaFIFO", fifoConfig{emitReplaced: true}, clientGoDeltaFIFO, oursDeltaFIFO},
	{"RealFIFO", fifoConfig{atomic: true, bookmark: true, unlock: true}, clientGoRealFIFO, oursRealFIFO},
}

// blockingPop records what a Pop blocked on an empty queue does when an
// item arrives, and when the queue is closed under it.
func blockingPop(t *testing.T, q *queueUnderTest) []string {
	var log []string
	synctest.Test(t, func(t *testing.T) {
		result := make(chan string, 1)
		popInBackground := func() {
			go func() {
				var got string
				_, err := q.pop(func(obj interface{}, _ bool) error {
					got = describe(obj)
					return nil
				})
				if err != nil {
					got = "error: " + err.Error()
				}
				result <- got
			}()
		}
		check := func(when string) {
			synctest.Wait() // every goroutine is now blocked: Pop has had its chance
			select {
			case got := <-result:
				log = append(log, when+": "+got)
			default:
				log = append(log, when+": still blocked")
			}
		}

		popInBackground()
		check("empty queue")
		if err := q.add(q.build(pod("a", 1))); err != nil {
			t.Fatal(err)
		}
		check("after Add")
		popInBackground()
		check("empty again")
		q.close()
		check("after Close")
	})
	return log
}

func TestPopBlocksUntilAnItemArrivesOrTheQueueCloses(t *testing.T) {
	for _, m := range queueMakers {
		t.Run(m.name, func(t *testing.T) {
			want := blockingPop(t, m.clientGo(m.config))
			if diff := cmp.Diff(want, blockingPop(t, m.ours(m.config))); diff != "" {
				t.Errorf("a blocked Pop behaves differently (-client-go +ours):\n%s", diff)
			}
		})
	}
}

// shortBatchPop records what PopBatch does with fewer items queued than a
// batch holds (3 of 1000), on an empty queue, when one item arrives, and
// when the queue is closed under it.
func shortBatchPop(t *testing.T, q *queueUnderTest) []string {
	var log []string
	synctest.Test(t, func(t *testing.T) {
		result := make(chan string, 4) // room for every PopBatch started: none is left blocked on a send
		popBatchInBackground := func() {
			go func() {
				var got string
				err := q.popBatch(func(ds Deltas, _ bool) error {
					got = "batch[" + describeDeltas(ds) + "]"
					return nil
				}, func(obj interface{}, _ bool) error {
					got = "single: " + describe(obj)
					return nil
				})
				if err != nil {
					got = "error: " + err.Error()
				}
				result <- got
			}()
		}
		check := func(when string) {
			synctest.Wait() // every goroutine is now blocked: PopBatch has had its chance
			select {
			case got := <-result:
				log = append(log, when+": "+got)
			default:
				log = append(log, when+": still blocked")
			}
		}

		for i, name := range []string{"a", "b", "c"} {
			if err := q.add(q.build(pod(name, i+1))); err != nil {
				t.Fatal(err)
			}
		}
		popBatchInBackground()
		check("3 queued, a batch holds 1000")
		popBatchInBackground()
		check("empty queue")
		if err := q.add(q.build(pod("d", 4))); err != nil {
			t.Fatal(err)
		}
		check("after Add")
		popBatchInBackground()
		check("empty again")
		q.close()
		check("after Close")
	})
	return log
}

// TestPopBatchTakesAShortBatchWithoutWaiting: client-go's RealFIFO.PopBatch
// waits only while the queue is empty. With 3 items queued and a batch size
// of 1000 it returns the 3 at once; it never waits for a batch to fill.
// Chapter 03 says so.
func TestPopBatchTakesAShortBatchWithoutWaiting(t *testing.T) {
	want := []string{
		"3 queued, a batch holds 1000: batch[Added a@1, Added b@2, Added c@3]",
		"empty queue: still blocked",
		"after Add: single: Added d@4",
		"empty again: still blocked",
		"after Close: error: " + cache.ErrFIFOClosed.Error(),
	}
	c := fifoConfig{atomic: true, bookmark: true, unlock: true} // as the informer builds it
	got := shortBatchPop(t, clientGoRealFIFO(c))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("client-go's PopBatch does not do what chapter 03 says (-chapter +client-go):\n%s", diff)
	}
	if diff := cmp.Diff(got, shortBatchPop(t, oursRealFIFO(c))); diff != "" {
		t.Errorf("PopBatch with a short batch behaves differently (-client-go +ours):\n%s", diff)
	}
}

// addDuringProcess has process queue another object, as the Reflector would
// while a slow handler runs. That only works if Pop released the lock.
func addDuringProcess(t *testing.T, q *queueUnderTest) []string {
	t.Helper()
	var log []string
	if err := q.add(q.build(pod("a", 1))); err != nil {
		t.Fatal(err)
	}
	_, err := q.pop(func(obj interface{}, _ bool) error {
		log = append(log, "process: "+describe(obj))
		return q.add(q.build(pod("b", 2)))
	})
	log = append(log, "pop error: "+errString(err))
	_, err = q.pop(func(obj interface{}, _ bool) error {
		log = append(log, "process: "+describe(obj))
		return nil
	})
	return append(log, "pop error: "+errString(err))
}

func TestUnlockWhileProcessingLetsWritesInDuringProcess(t *testing.T) {
	c := fifoConfig{atomic: true, unlock: true}
	want := addDuringProcess(t, clientGoRealFIFO(c))
	if diff := cmp.Diff(want, addDuringProcess(t, oursRealFIFO(c))); diff != "" {
		t.Errorf("(-client-go +ours):\n%s", diff)
	}
}

// Without UnlockWhileProcessing process runs under the queue's lock, which
// is what lets a DeltaFIFO's consumer update KnownObjects safely. client-go
// only documents this; we check ours directly.
func TestProcessRunsUnderTheLockWithoutUnlockWhileProcessing(t *testing.T) {
	d := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	r := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true})
	for name, q := range map[string]interface {
		Add(interface{}) error
		Pop(PopProcessFunc) (interface{}, error)
	}{"DeltaFIFO": d, "RealFIFO": r} {
		lock := map[string]*sync.RWMutex{"DeltaFIFO": &d.lock, "RealFIFO": &r.lock}[name]
		if err := q.Add(newPod("a", 1)); err != nil {
			t.Fatal(err)
		}
		_, _ = q.Pop(func(interface{}, bool) error {
			if lock.TryLock() {
				lock.Unlock()
				t.Errorf("%s: process ran without the queue's lock held; Pop must keep it until process returns, so that "+
					"process can update the consumer's store (KnownObjects) while Replace, Delete and Resync, which read it, wait", name)
			}
			return nil
		})
	}
}

// lockHeldDuringPop pops one item and reports whether the queue's lock was
// held while process ran: TryLock fails on a held lock, and succeeds (then
// gives the lock back) on a released one, with no timing involved.
func lockHeldDuringPop(pop func(process func(interface{}, bool) error) error, lock interface {
	TryLock() bool
	Unlock()
}) (held bool, err error) {
	err = pop(func(interface{}, bool) error {
		if lock.TryLock() {
			lock.Unlock()
			return nil
		}
		held = true
		return nil
	})
	return held, err
}

// clientGoRealFIFOLock reaches the lock client-go's RealFIFO keeps in an
// unexported field, so the test can ask it the same question as ours.
func clientGoRealFIFOLock(t *testing.T, f *cache.RealFIFO) *sync.RWMutex {
	t.Helper()
	field := reflect.ValueOf(f).Elem().FieldByName("lock")
	if !field.IsValid() || field.Type() != reflect.TypeFor[sync.RWMutex]() {
		t.Fatalf("client-go's RealFIFO has no lock sync.RWMutex field any more (%v): update this test", field)
	}
	return (*sync.RWMutex)(unsafe.Pointer(field.UnsafeAddr()))
}

// TestUnlockWhileProcessingKeepsTheLockWhenTwoBatchesWait: Pop releases the
// lock during process only while fewer than two batches (2,000 items) are
// queued behind the item it took. With more, it keeps the lock, so the
// Reflector's writes wait for the handler instead of growing the queue
// without bound. Checked at the boundary, client-go beside ours.
func TestUnlockWhileProcessingKeepsTheLockWhenTwoBatchesWait(t *testing.T) {
	opts := RealFIFOOptions{AtomicEvents: true, UnlockWhileProcessing: true}
	for _, tc := range []struct {
		queued   int
		wantHeld bool
	}{
		{queued: 1, wantHeld: false},
		{queued: 2000, wantHeld: false}, // 1,999 left behind the popped one
		{queued: 2001, wantHeld: true},  // 2,000 left: two full batches
	} {
		theirs := cache.NewRealFIFOWithOptions(cache.RealFIFOOptions{AtomicEvents: opts.AtomicEvents, UnlockWhileProcessing: opts.UnlockWhileProcessing})
		ours := NewRealFIFOWithOptions(opts)
		for i := range tc.queued {
			obj := newPod(fmt.Sprintf("pod-%d", i), i+1)
			if err := theirs.Add(obj); err != nil {
				t.Fatal(err)
			}
			if err := ours.Add(obj); err != nil {
				t.Fatal(err)
			}
		}
		theirsHeld, theirsErr := lockHeldDuringPop(func(process func(interface{}, bool) error) error {
			_, err := theirs.Pop(process)
			return err
		}, clientGoRealFIFOLock(t, theirs))
		oursHeld, oursErr := lockHeldDuringPop(func(process func(interface{}, bool) error) error {
			_, err := ours.Pop(process)
			return err
		}, &ours.lock)
		if theirsErr != nil || oursErr != nil {
			t.Fatalf("%d queued: Pop returned %v (client-go), %v (ours)", tc.queued, theirsErr, oursErr)
		}
		if theirsHeld != tc.wantHeld {
			t.Errorf("%d queued: client-go held the lock during process: %v; the test expects %v: update it", tc.queued, theirsHeld, tc.wantHeld)
		}
		if oursHeld != theirsHeld {
			t.Errorf("%d queued: lock held during process: client-go %v, ours %v", tc.queued, theirsHeld, oursHeld)
		}
	}
}

// consumeConcurrently runs a producer (the Reflector's role) and a consumer
// (the informer's) on separate goroutines, then closes the queue; the
// consumer drains it and stops on ErrFIFOClosed. It returns the consumer's
// store at the end.
func consumeConcurrently(t *testing.T, q *queueUnderTest, script []op) []string {
	t.Helper()
	store := map[string]string{} // key → object, as the consumer saw it
	apply := func(ds Deltas) {
		for _, d := range ds {
			switch d.Type {
			case ReplacedAll:
				clear(store)
				for _, o := range replacedAllObjects(d.Object) {
					store[testKey(o)] = describe(o)
				}
			case Added, Updated, Replaced, Sync:
				store[testKey(d.Object)] = describe(d.Object)
			case Deleted:
				delete(store, testKey(d.Object))
			}
		}
	}

	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			_, err := q.pop(func(obj interface{}, _ bool) error {
				ds, _ := q.asDeltas(obj)
				apply(ds)
				if q.known != nil {
					return q.known.apply(ds)
				}
				return nil
			})
			if errors.Is(err, ErrFIFOClosed) || errors.Is(err, cache.ErrFIFOClosed) {
				return
			}
		}
	})
	for _, o := range script {
		var err error
		switch o.kind {
		case opAdd:
			err = q.add(q.build(o.obj))
		case opUpdate:
			err = q.update(q.build(o.obj))
		case opDelete:
			err = q.del(q.build(o.obj))
		case opReplace:
			objs := make([]interface{}, len(o.list))
			for i, s := range o.list {
				objs[i] = q.build(s)
			}
			err = q.replace(objs, o.rv)
		}
		if err != nil {
			t.Errorf("%s: %v", o, err)
		}
	}
	q.close()
	wg.Wait()

	var out []string
	for k, v := range store {
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return out
}

// replacedAllObjects is the list a ReplacedAll delta carries, from either
// package.
func replacedAllObjects(obj interface{}) []interface{} {
	switch o := obj.(type) {
	case ReplacedAllInfo:
		return o.Objects
	case cache.ReplacedAllInfo:
		return o.Objects
	}
	return nil
}

// testKey is the key of a pod or a tombstone, from either package.
func testKey(obj interface{}) string {
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		return d.Key
	}
	k, _ := DeletionHandlingMetaNamespaceKeyFunc(obj)
	return k
}

// TestConcurrentConsumerEndsWithTheServersState runs the two goroutines for
// real (under -race): whatever the interleaving, the consumer must end with
// the producer's final state, on our queues as on client-go's. A relist that
// leaves one object out stands for a deletion missed while disconnected.
func TestConcurrentConsumerEndsWithTheServersState(t *testing.T) {
	defer goleak.VerifyNone(t)
	r := rand.New(rand.NewPCG(3, 3))
	truth := map[string]spec{}
	var script []op
	rv := 0
	for range 300 {
		rv++
		s := pod(testNames[r.IntN(4)], rv) // not "e": no transformer here anyway
		_, exists := truth[s.name]
		switch r.IntN(10) {
		case 0:
			// Relist, missing one object.
			var list []spec
			for _, name := range testNames {
				if o, ok := truth[name]; ok && name != s.name {
					list = append(list, o)
				}
			}
			delete(truth, s.name)
			script = append(script, replace(fmt.Sprint(rv), list...))
		case 1, 2:
			if exists {
				delete(truth, s.name)
				script = append(script, del(s))
			}
		default:
			truth[s.name] = s
			if exists {
				script = append(script, update(s))
			} else {
				script = append(script, add(s))
			}
		}
	}
	var want []string
	for _, s := range truth {
		want = append(want, testNamespace+"/"+s.name+"="+s.String())
	}
	slices.Sort(want)

	for _, m := range queueMakers {
		t.Run(m.name, func(t *testing.T) {
			if diff := cmp.Diff(want, consumeConcurrently(t, m.clientGo(m.config), script)); diff != "" {
				t.Errorf("client-go's consumer did not end with the final state (-want +client-go):\n%s", diff)
			}
			if diff := cmp.Diff(want, consumeConcurrently(t, m.ours(m.config), script)); diff != "" {
				t.Errorf("our consumer did not end with the final state (-want +ours):\n%s", diff)
			}
		})
	}
}
