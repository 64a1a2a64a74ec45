package main

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"informer-from-scratch/08-workqueue-controller/observe"
	"informer-from-scratch/internal/standin"
	"informer-from-scratch/internal/timeline"
	"informer-from-scratch/internal/webview"
	"informer-from-scratch/internal/webview/webviewtest"
)

// scripted is a stage 08 run without a cluster: the controller's Steps,
// in an order the real controller produces them (a playground run's rows,
// shortened), fed through the demo's own trace, so that the rows and their
// fields are exactly what the demo prints and attaches.
type scripted struct {
	t     *testing.T
	tl    *timeline.Timeline
	trace *trace
	start time.Time
	now   time.Time
	depth int64 // what the queue's depth metric reads at the next step
}

func newScripted(t *testing.T, out *strings.Builder) *scripted {
	s := &scripted{t: t, start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s.now = s.start
	s.tl = timeline.NewWithClock(out, func() time.Time { return s.now })
	s.trace = &trace{tl: s.tl, dirty: func() int64 { return s.depth }}
	return s
}

// at sets the clock to ms milliseconds after the start.
func (s *scripted) at(ms int) { s.now = s.start.Add(time.Duration(ms) * time.Millisecond) }

const ns = "stage08"

// The controller's Steps, as its code takes them.
func (s *scripted) handler(op, object, key string, err error) {
	s.trace.observe(observe.Step{Layer: observe.LayerHandler, Op: op, Key: key, Object: object, Err: err, Len: -1})
}

func (s *scripted) queue(op, key string, worker, length int, depth int64) {
	s.depth = depth
	s.trace.observe(observe.Step{Layer: observe.LayerQueue, Op: op, Key: key, Worker: worker, Len: length})
}

func (s *scripted) rateLimited(key string, requeues int, delay time.Duration) {
	s.trace.observe(observe.Step{Layer: observe.LayerQueue, Op: "AddRateLimited", Key: key, Delay: delay, Requeues: requeues, Len: -1})
}

func (s *scripted) worker(op, key string, worker int, err error) {
	s.trace.observe(observe.Step{Layer: observe.LayerWorker, Op: op, Key: key, Worker: worker, Err: err, Len: -1})
}

func (s *scripted) lister(object, key string, worker int, err error) {
	s.trace.observe(observe.Step{Layer: observe.LayerLister, Op: "Get", Key: key, Object: object, Worker: worker, Err: err, Len: -1})
}

// write is a write's two rows, its request and its answer; an Event is one.
func (s *scripted) write(op, object, key string, worker int, err error) {
	if op != "EVENT" {
		s.trace.observe(observe.Step{Layer: observe.LayerWrite, Op: op, Key: key, Object: object, Worker: worker, Len: -1, Sent: true})
	}
	s.trace.observe(observe.Step{Layer: observe.LayerWrite, Op: op, Key: key, Object: object, Worker: worker, Err: err, Len: -1})
}

// add is a handler's Add: printed before the call, so no length (the next
// Get's row says it).
func (s *scripted) add(key string, depth int64, detail string) {
	s.depth = depth
	s.trace.observe(observe.Step{Layer: observe.LayerQueue, Op: "Add", Key: key, Detail: detail, Len: -1})
}

// done is a worker's Done: printed before the call, as Add is.
func (s *scripted) done(key string, worker int, depth int64) {
	s.depth = depth
	s.trace.observe(observe.Step{Layer: observe.LayerQueue, Op: "Done", Key: key, Worker: worker, Len: -1})
}

func (s *scripted) controller(op string, length int) {
	s.trace.observe(observe.Step{Layer: observe.LayerController, Op: op, Len: length})
}

var (
	errNotFound = errors.New(`deployment.apps "x" not found`)
	errConflict = errors.New("operation cannot be fulfilled: the object has been modified")
	err500      = errors.New("injected by the demo's --fail")
)

// story is a run of stage 08's demo: a Foo created (its Deployment's add
// marks the key dirty while a worker has it, and a status conflict is
// retried), a Foo whose Deployment create fails twice, and a shutdown that
// drops an Add.
func (s *scripted) story() {
	example, flaky := ns+"/example", ns+"/flaky"
	s.tl.StepEN("Start the controller")
	s.controller("Start", -1)
	s.controller("Synced", 0)
	s.controller("Workers", -1)

	s.tl.StepEN("Create a Foo")
	s.at(100)
	s.tl.Event("demo", "CREATE", "Foo "+example, "spec.replicas=1")
	s.handler("OnAdd", "Foo "+example, example, nil)
	s.add(example, 1, "")
	s.queue("Get", example, 0, 0, 0)
	s.worker("sync", example, 1, nil)
	s.lister("Foo "+example, example, 1, nil)
	s.lister("Deployment "+ns+"/example-web", example, 1, errNotFound)
	s.at(105)
	s.handler("OnAdd", "Deployment "+ns+"/example-web", example, nil)
	s.add(example, 1, "held by a worker: queued again at its Done") // marked while worker 1 has it: dirty
	s.write("CREATE", "Deployment "+ns+"/example-web", example, 1, nil)
	s.trace.standin(standinAction("STATUS", "Deployment "+ns+"/example-web"))
	s.write("UPDATE", "Foo "+example+" status", example, 1, nil)
	s.write("EVENT", "Foo "+example, example, 1, nil)
	s.worker("synced", example, 1, nil)
	s.done(example, 1, 1) // the dirty mark is queued
	s.queue("Get", example, 0, 0, 0)
	s.worker("sync", example, 1, nil)
	s.at(110)
	s.write("UPDATE", "Foo "+example+" status", example, 1, errConflict)
	s.worker("failed", example, 1, errConflict)
	s.rateLimited(example, 1, 5*time.Millisecond)
	s.done(example, 1, 0)
	s.at(116)
	s.queue("Get", example, 0, 0, 0)
	s.worker("sync", example, 1, nil)
	s.worker("synced", example, 1, nil)
	s.done(example, 1, 0)

	s.tl.StepEN("A reconcile that fails 2 times")
	s.at(200)
	s.tl.Event("demo", "CREATE", "Foo "+flaky, "spec.replicas=1")
	s.handler("OnAdd", "Foo "+flaky, flaky, nil)
	s.add(flaky, 1, "")
	s.queue("Get", flaky, 0, 0, 0)
	s.worker("sync", flaky, 2, nil)
	s.write("CREATE", "Deployment "+ns+"/flaky-web", flaky, 2, err500)
	s.worker("failed", flaky, 2, err500)
	s.rateLimited(flaky, 1, 5*time.Millisecond)
	s.done(flaky, 2, 0)
	s.at(202) // within the wait: the token must still be waiting
	s.trace.standin(standinAction("STATUS", "Deployment "+ns+"/example-web"))
	s.at(206)
	s.queue("Get", flaky, 0, 0, 0)
	s.worker("sync", flaky, 1, nil)
	s.write("CREATE", "Deployment "+ns+"/flaky-web", flaky, 1, err500)
	s.worker("failed", flaky, 1, err500)
	s.rateLimited(flaky, 2, 10*time.Millisecond)
	s.done(flaky, 1, 0)
	s.at(217)
	s.queue("Get", flaky, 0, 0, 0)
	s.worker("sync", flaky, 2, nil)
	s.write("CREATE", "Deployment "+ns+"/flaky-web", flaky, 2, nil)
	s.worker("synced", flaky, 2, nil)
	s.done(flaky, 2, 0)
	s.at(300)
	s.handler("OnDelete", ns+"/flaky", flaky, nil) // a Foo's delete: nothing to enqueue

	s.tl.StepEN("Shut down with a reconcile in flight")
	s.at(400)
	s.handler("OnUpdate", "Foo "+example, example, nil)
	s.add(example, 1, "")
	s.queue("Get", example, 0, 0, 0)
	s.worker("sync", example, 2, nil)
	s.controller("ShutDownWithDrain", 0)
	s.at(1400)
	s.handler("OnUpdate", "Deployment "+ns+"/example-web", example, nil)
	s.add(example, 0, "dropped: the queue is shutting down")
	s.write("UPDATE", "Deployment "+ns+"/example-web", example, 2, nil)
	s.worker("synced", example, 2, nil)
	s.done(example, 2, 0)
	s.controller("Drained", -1)
	s.controller("Shutdown", -1)
	s.tl.NoteEN("The end.")
}

// TestWebStreamFollowsEachKey runs the scripted story through the demo's
// trace and reads the stream as the page does: the stream's rows are the
// terminal's, and each key's token moves through the workqueue as the
// queue's Add, Get and Done rules say (client-go's util/workqueue/queue.go).
func TestWebStreamFollowsEachKey(t *testing.T) {
	var out strings.Builder
	s := newScripted(t, &out)
	srv, err := webview.Start("127.0.0.1:0", webConfig(), s.tl)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	st := webviewtest.Connect(t, srv.URL())
	s.story()
	st.WaitFor(t, "the story's last row", func(m webview.Message) bool {
		return m.Row != nil && strings.Contains(m.Row.Text, "The end.")
	})
	msgs := st.Messages()

	var rows strings.Builder
	for _, m := range msgs {
		if m.Row != nil {
			rows.WriteString(m.Row.Text)
		}
	}
	if diff := cmp.Diff(out.String(), rows.String()); diff != "" {
		t.Errorf("the stream's rows differ from the terminal's output (-terminal +stream):\n%s", diff)
	}

	journeys := webviewtest.Journeys(st.Snapshot, msgs)
	byKey := func(key string) (lanes [][]string) {
		for _, j := range journeys {
			if j.Key == key {
				lanes = append(lanes, j.Lanes)
			}
		}
		return lanes
	}
	informers := []string{"apiserver", "informers", "handlers"}
	path := func(lanes ...string) []string { return append(slices.Clone(informers), lanes...) }
	for _, c := range []struct {
		what, key string
		lanes     []string
	}{
		{"the Foo's add: queued, handed to a worker, written", ns + "/example",
			path("queued", "processing", "worker", "write")},
		{"the Deployment's add while a worker has the key: dirty until Done, then queued; its status conflict retried", ns + "/example",
			path("dirty", "queued", "processing", "worker", "write", "queued", "processing", "worker")},
		{"the failing create: back to queued twice, written the third time", ns + "/flaky",
			path("queued", "processing", "worker", "write", "queued", "processing", "worker", "write", "queued", "processing", "worker", "write")},
		{"an Add the shutting-down queue drops", ns + "/example", path()},
		{"a Foo's delete, which enqueues nothing", ns + "/flaky", path()},
	} {
		if !slices.ContainsFunc(byKey(c.key), func(l []string) bool { return slices.Equal(l, c.lanes) }) {
			t.Errorf("%s: no token of %s went %v; its tokens went:\n%v", c.what, c.key, c.lanes, byKey(c.key))
		}
	}

	// A retried token waits in the queue for its delay: it leaves the
	// waiting state only at a row printed once the delay is over.
	waits := 0
	for id, j := range journeys {
		if j.Key != ns+"/flaky" {
			continue
		}
		var until time.Duration = -1
		for _, m := range msgs {
			for _, mv := range m.Moves {
				if mv.ID != id {
					continue
				}
				switch {
				case mv.State == "delayed":
					d, _ := time.ParseDuration(m.Row.Fields[webview.FieldDelay])
					until = m.Row.Offset + d
					waits++
				case until >= 0 && m.Row.Offset < until:
					t.Errorf("%s's token left the wait at %v, before its delay ended at %v: %s", j.Key, m.Row.Offset, until, m.Row.Text)
				default:
					until = -1
				}
			}
		}
	}
	if waits != 2 {
		t.Errorf("flaky's token waited %d times in the queue, want 2 (its two failures)", waits)
	}
	// Within its wait (a row at +202ms), it was still waiting.
	for _, m := range msgs {
		if m.Row != nil && m.Row.Offset == 202*time.Millisecond {
			if late := srvToken(t, st.Snapshot, msgs, m.Seq, ns+"/flaky"); late.State != "delayed" || late.Lane != "queued" {
				t.Errorf("at +202ms, 2ms into its 5ms wait, flaky's token is %s/%s; want queued/delayed", late.Lane, late.State)
			}
		}
	}

	// The counters, at a few rows.
	at := func(text string) webview.State {
		for _, m := range msgs {
			if m.Row != nil && strings.Contains(m.Row.Text, text) {
				return m.State
			}
		}
		t.Fatalf("no row %q", text)
		return webview.State{}
	}
	for _, c := range []struct{ row, counter, want string }{
		{"workqueue  Get       stage08/example                len=0 dirty=0", webview.CounterLen, "0"},
		{"held by a worker: queued again at its Done", webview.CounterProcessing, "1"},
		{"worker     sync      stage08/example                worker 1", webview.CounterProcessing, "1"},
		{"controller Workers", webview.CounterController, "running"},
		{"requeue 2 — back in 10ms", webview.CounterRetries, "3"},
		{"requeue 2 — back in 10ms", webview.CounterFailures, "3"},
		{"ShutDownWithDrain", webview.CounterController, "draining"},
		{"The end.", webview.CounterProcessing, "0"},
		{"The end.", webview.CounterWrites, "4"},
		{"The end.", webview.CounterController, "stopped"},
	} {
		if got := at(c.row).Counters[c.counter]; got != c.want {
			t.Errorf("after the row %q, counter %s = %q, want %q", c.row, c.counter, got, c.want)
		}
	}

	// At the end no token is left anywhere: every mark was handed out and
	// done, merged, or dropped (a page connecting now starts empty).
	if end := webviewtest.Connect(t, srv.URL()); len(end.Snapshot.Tokens) != 0 {
		t.Errorf("tokens left at the end: %+v", end.Snapshot.Tokens)
	}
}

// srvToken is the token of key as of message seq, followed through the
// moves from the snapshot on; it fails the test if key has none then.
func srvToken(t *testing.T, snap webview.Snapshot, msgs []webview.Message, seq int, key string) webview.Token {
	t.Helper()
	live := map[string]webview.Token{}
	for _, tk := range snap.Tokens {
		live[tk.ID] = tk
	}
	for _, m := range msgs {
		if m.Seq > seq {
			break
		}
		for _, mv := range m.Moves {
			if mv.Gone {
				delete(live, mv.ID)
			} else {
				live[mv.ID] = mv.Token
			}
		}
	}
	for _, tk := range live {
		if tk.Key == key {
			return tk
		}
	}
	t.Fatalf("no token of %s at message %d", key, seq)
	return webview.Token{}
}

// standinAction is one write of the stand-in.
func standinAction(what, object string) standin.Action {
	return standin.Action{What: what, Object: object, Replicas: 1, Detail: "availableReplicas=1 (the deployment controller's part)"}
}
