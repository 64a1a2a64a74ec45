package workqueue

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	cgworkqueue "k8s.io/client-go/util/workqueue"
)

// The concurrency properties, checked on ours and, as a control that the
// checks themselves are right, on client-go's: many producers and workers,
// no item held by two workers at once, and no Add lost.

// workLog is what the workers and producers share. version counts the adds
// of each key, bumped before the Add call; a worker that Gets the key records
// the version it saw. When all is done, each key's last processing must have
// begun after its last add: seen == version. An Add the queue dropped, or
// merged into a processing that had already begun, leaves seen behind.
//
// An Add after shutdown is dropped by design, so workers stop adding before
// the test shuts the queue down: closed, under gate, says so.
type workLog struct {
	gate   sync.RWMutex
	closed bool

	mu       sync.Mutex
	inFlight map[string]bool
	version  map[string]int
	seen     map[string]int
	got      map[string]int // how many times Get handed each key out
	// overHanded counts the times Get handed out a key more often than
	// it was added.
	overHanded int
	// shared counts, per key, the times a worker got it while another
	// still held it.
	shared    map[string]int
	processed int
	errs      []string
}

func newWorkLog() *workLog {
	return &workLog{inFlight: map[string]bool{}, version: map[string]int{}, seen: map[string]int{}, got: map[string]int{}, shared: map[string]int{}}
}

// again has a worker add key once more, unless the test is about to shut
// the queue down.
func (w *workLog) again(key string, add func(string)) {
	w.gate.RLock()
	defer w.gate.RUnlock()
	if !w.closed {
		w.adding(key)
		add(key)
	}
}

// close stops the workers' adds; when it returns, none is under way.
func (w *workLog) close() {
	w.gate.Lock()
	defer w.gate.Unlock()
	w.closed = true
}

func (w *workLog) adding(key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.version[key]++
}

// start records that a worker got key. It returns false, and records why,
// when the queue handed out what no queue may: an item nobody added (the
// zero item of a Get that did not wait), or an item more times than it was
// added (each Get takes one Add, or more collapsed into one). The worker
// then stops, rather than take the next such item for ever.
func (w *workLog) start(key string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.got[key]++
	if w.got[key] > w.version[key] {
		w.overHanded++
		switch {
		case w.overHanded > 1: // said once
		case w.version[key] == 0:
			w.errs = append(w.errs, fmt.Sprintf("Get handed out %q, which nobody added: a Get that does not wait for an item?", key))
		default:
			w.errs = append(w.errs, fmt.Sprintf("Get handed out %q again (%d times in all) after only %d adds: a Get that leaves the item in dirty, so that Done queues it again?", key, w.got[key], w.version[key]))
		}
		return false
	}
	if w.inFlight[key] {
		w.shared[key]++
	}
	w.inFlight[key] = true
	w.seen[key] = w.version[key]
	w.processed++
	return true
}

// fail records what went wrong outside a worker.
func (w *workLog) fail(format string, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.errs = append(w.errs, fmt.Sprintf(format, args...))
}

func (w *workLog) finish(key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.inFlight, key)
}

// check returns what went wrong: items shared, adds lost, work left
// unfinished.
func (w *workLog) check() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	errs := slices.Clone(w.errs)
	if w.overHanded > 1 {
		errs = append(errs, fmt.Sprintf("… and %d more items handed out that no add was left for", w.overHanded-1))
	}
	var shared []string
	for key, n := range w.shared {
		line := key + " handed to a second worker while the first still held it"
		if n > 1 {
			line += fmt.Sprintf(" (%d times)", n)
		}
		shared = append(shared, line)
	}
	errs = append(errs, firstOf(shared, "keys handed to two workers at once")...)
	var lost []string
	for key, v := range w.version {
		if w.seen[key] != v {
			lost = append(lost, fmt.Sprintf("%s: added %d times, its last processing began after add %d", key, v, w.seen[key]))
		}
	}
	errs = append(errs, firstOf(lost, "keys whose last add was lost")...)
	var held []string
	for key := range w.inFlight {
		held = append(held, key+" still in processing after the drain")
	}
	return append(errs, firstOf(held, "keys still in processing")...)
}

// firstOf returns the first three of lines, sorted, and a line that counts
// the rest: a queue that loses every add would otherwise print fifty.
func firstOf(lines []string, what string) []string {
	slices.Sort(lines)
	if len(lines) <= 3 {
		return lines
	}
	return append(lines[:3:3], fmt.Sprintf("… and %d more %s", len(lines)-3, what))
}

// implementations gives each test both queues, with a fast per-item backoff
// so retries come quickly.
var implementations = []struct {
	name string
	make func() queueUnderTest
}{
	{"client-go", func() queueUnderTest {
		return cgworkqueue.NewTypedRateLimitingQueue(cgworkqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Microsecond, time.Millisecond))
	}},
	{"ours", func() queueUnderTest {
		return NewTypedRateLimitingQueue(NewTypedItemExponentialFailureRateLimiter[string](time.Microsecond, time.Millisecond))
	}},
}

// worker processes keys until Get says shutdown; with probability pAgain it
// adds the key again while holding it (the dirty-while-processing case), and
// retries it rate-limited with probability pRetry.
func worker(q queueUnderTest, log *workLog, pAgain, pRetry float64) {
	for {
		key, shutdown := q.Get()
		if shutdown {
			return
		}
		if !log.start(key) {
			q.Done(key) // so that the drain need not wait for it
			return
		}
		runtime.Gosched() // let others run while this key is held
		if rand.Float64() < pAgain {
			log.again(key, q.Add)
		}
		if rand.Float64() < pRetry {
			log.again(key, q.AddRateLimited)
		} else {
			q.Forget(key)
		}
		log.finish(key)
		q.Done(key)
	}
}

// runWorkload runs 8 workers and 8 producers on q; each producer adds n
// keys out of 50 with add. It returns once the producers are done; settle
// runs then (to let delayed adds come due), before the workers stop adding
// and the queue is drained with ShutDownWithDrain.
func runWorkload(q queueUnderTest, log *workLog, pAgain, pRetry float64, n int, add func(key string, i int), settle func()) {
	var workers, producers sync.WaitGroup
	for range 8 {
		workers.Go(func() { worker(q, log, pAgain, pRetry) })
	}
	for p := range 8 {
		producers.Go(func() {
			for i := range n {
				key := fmt.Sprintf("key-%d", (p*7+i)%50)
				log.adding(key)
				add(key, i)
			}
		})
	}
	producers.Wait()
	settle()
	log.close()
	if !drainWithin(q) {
		log.fail("ShutDownWithDrain still waited %v after the last add, every worker idle: an item never left the processing set (a Done that does not take it out?)", drainBound)
	}
	workers.Wait()
	q.ShutDown() // client-go's waiting loop outlives ShutDownWithDrain (TestShutDownWithDrainStopsTheWaitingLoop)
}

// drainBound is how long a test waits for a ShutDownWithDrain before it
// ends it with ShutDown: a correct drain here is over in milliseconds, and
// the bound only turns a wrong queue's drain that never returns (an item
// left in the processing set) into a failure instead of a hang. In a bubble
// it passes as soon as every goroutine is stuck.
const drainBound = 10 * time.Second

// drainWithin calls ShutDownWithDrain, and ShutDown if the drain has not
// returned within drainBound; it reports whether the drain returned by
// itself.
func drainWithin(q TypedInterface[string]) bool {
	drained := make(chan struct{})
	go func() { q.ShutDownWithDrain(); close(drained) }()
	timer := time.NewTimer(drainBound)
	defer timer.Stop()
	select {
	case <-drained:
		return true
	case <-timer.C:
		q.ShutDown() // ends the drain
		<-drained
		return false
	}
}

// TestManyWorkersOnTheRealClock: 8 producers Add 50 keys, 8 workers process
// them and add some again while holding them, on the real scheduler and
// clock; then ShutDownWithDrain. Get reports shutdown only once the queue is
// empty, so when the workers have all returned every add must have been
// processed. (Only Add here: on the real clock, a delayed item still waiting
// at shutdown is dropped by design. The bubble test below covers delays.)
func TestManyWorkersOnTheRealClock(t *testing.T) {
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			q, log := impl.make(), newWorkLog()
			runWorkload(q, log, 0.2, 0, 2000, func(key string, _ int) { q.Add(key) }, func() {})
			for _, e := range log.check() {
				t.Error(e)
			}
			if q.Len() != 0 {
				t.Errorf("%d items left in the queue", q.Len())
			}
			t.Logf("%d processings of 50 keys for %d adds", log.processed, 8*2000)
		})
	}
}

// TestManyWorkersWithRetriesInABubble: the same with AddAfter and
// AddRateLimited from producers, and rate-limited retries from workers, in a
// synctest bubble so the delays pass in fake time. After the producers
// finish, a one-second sleep lets every delayed add and retry chain come due
// (time moves only when all goroutines wait), so nothing is still waiting in
// the heap when the queue shuts down.
func TestManyWorkersWithRetriesInABubble(t *testing.T) {
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				q, log := impl.make(), newWorkLog()
				add := func(key string, i int) {
					switch i % 3 {
					case 0:
						q.Add(key)
					case 1:
						q.AddAfter(key, time.Duration(rand.IntN(1000))*time.Microsecond)
					case 2:
						q.AddRateLimited(key)
					}
				}
				settle := func() {
					time.Sleep(time.Second) // every delay is at most 1ms; retry chains end long before
					synctest.Wait()
				}
				runWorkload(q, log, 0.1, 0.3, 500, add, settle)
				for _, e := range log.check() {
					t.Error(e)
				}
			})
		})
	}
}

// TestShutDownWithDrainWaitsForEveryItemInProcessing: three workers hold
// three keys; one of them is added again meanwhile. ShutDownWithDrain must
// not return before all three are Done, the re-added key must be handed out
// once more (to a worker still calling Get), and only then may Get report
// shutdown.
func TestShutDownWithDrainWaitsForEveryItemInProcessing(t *testing.T) {
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				q := impl.make()
				release := make(chan struct{})
				var mu sync.Mutex
				var handed, done []string
				var workers sync.WaitGroup
				for range 3 {
					workers.Go(func() {
						for {
							key, shutdown := q.Get()
							if shutdown {
								return
							}
							mu.Lock()
							handed = append(handed, key)
							extra := key == "" || len(handed) > 4
							mu.Unlock()
							if extra {
								return // not one of the four adds: the check below says so
							}
							<-release
							mu.Lock()
							done = append(done, key)
							mu.Unlock()
							q.Done(key)
						}
					})
				}
				for _, k := range []string{"a", "b", "c"} {
					q.Add(k)
				}
				synctest.Wait() // each worker holds one key
				q.Add("b")      // dirty while processing
				drained := make(chan struct{})
				go func() { q.ShutDownWithDrain(); close(drained) }()
				synctest.Wait()
				if isClosed(drained) {
					t.Error("ShutDownWithDrain returned while three keys were in processing")
				}
				close(release)
				workers.Wait()
				select {
				case <-drained:
				case <-time.After(drainBound):
					t.Errorf("ShutDownWithDrain still waited %v after every worker had returned: an item never left the processing set (a Done that does not take it out?)", drainBound)
					q.ShutDown() // ends the drain
					<-drained
				}
				q.ShutDown() // client-go's waiting loop outlives ShutDownWithDrain
				slices.Sort(done)
				if got := fmt.Sprint(done); got != "[a b b c]" {
					t.Errorf("processed %s, want [a b b c]: the re-added key once more (Get handed out %q)", got, handed)
				}
			})
		})
	}
}

// TestGetWokenForNothingWaitsAgain: a Get waiting on the condition variable
// can wake to an empty queue that is not shutting down: Add signalled it,
// but another Get took the lock first and the item with it. It must wait
// again (client-go's Get, like every sync.Cond user, waits in a loop), not
// return: an early return hands a worker the zero item, or tells it to stop
// while the queue still runs. The race for the lock is the scheduler's to
// settle, so the test plays the other Get itself, holding our queue's lock
// (client-go's is out of reach): it wakes the waiting Get with nothing
// queued.
func TestGetWokenForNothingWaitsAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := NewTyped[string]()
		defer q.ShutDown()
		got := make(chan string, 1)
		go func() {
			item, shutdown := q.Get()
			got <- fmt.Sprintf("Get returned (%q, shutdown=%v)", item, shutdown)
		}()
		synctest.Wait() // the Get waits on q.cond
		q.cond.L.Lock()
		q.cond.Broadcast() // as an Add's Signal whose item another Get took
		q.cond.L.Unlock()
		synctest.Wait()
		select {
		case r := <-got:
			t.Fatalf("woken with nothing queued and no shutdown, %s; it must wait again (a loop around cond.Wait, not an if)", r)
		default:
		}
		q.Add("a")
		if r := <-got; r != `Get returned ("a", shutdown=false)` {
			t.Errorf("after the Add, %s; want \"a\"", r)
		}
	})
}
