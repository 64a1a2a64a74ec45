// Not a mirror of client-go: how each row of stage 08's demo moves tokens.
// The layers are the controller's Step layers
// (08-workqueue-controller/observe: handler, workqueue,
// worker, lister, write, controller) and the demo's own ("demo", its writes
// by hand, and "standin", kube-controller-manager's part on the
// playground). A token is one mark of a key in the workqueue: the queue's
// dirty set is what decides whether an Add makes a new one, joins one, or
// waits for a worker's Done, and the fold keeps it as client-go's
// Typed[T] does (util/workqueue/queue.go: Add, Get, Done).

package webview

import (
	"strconv"
	"strings"
	"time"

	"informer-from-scratch/internal/timeline"
)

// Lane IDs of a controller's pipeline (ControllerLanes), after the API
// server's.
const (
	LaneInformers  = "informers"
	LaneHandlers   = "handlers"
	LaneQueued     = "queued"
	LaneDirty      = "dirty"
	LaneProcessing = "processing"
	LaneWorker     = "worker"
	LaneWrite      = "write"
)

// ControllerLanes are stage 08's lanes: API server → informers → the
// controller's event handlers → the workqueue (queued, dirty, processing) →
// the workers → the API writes.
//
// The informers are one lane: stage 08's timeline has no row from inside
// them (the controller's Observer starts at its handlers), and the page
// draws only what the terminal prints. A token crosses that lane in one
// trip when a handler is called, which every handler call proves it did;
// stage 06's view shows the trip layer by layer.
func ControllerLanes() []Lane {
	return []Lane{
		{ID: LaneAPIServer, Label: Label{"API server", "API Server"},
			Hint: Label{"the demo's writes by hand, the stand-in's", "demo 手动的写入、stand-in 的写入"}},
		{ID: LaneInformers, Label: Label{"Informers (Foo, Deployment)", "Informer（Foo、Deployment）"},
			Hint: Label{"stages 06-07 in one lane; the listers read their caches", "第 06-07 阶段合成一条泳道；lister 读它们的缓存"}},
		{ID: LaneHandlers, Label: Label{"Event handlers", "事件 handler"},
			Hint: Label{"object → key (a Deployment → its Foo's key)", "对象 → key（Deployment → 它的 Foo 的 key）"}},
		{ID: LaneQueued, Label: Label{"Queued", "queue（排队中）"},
			Hint: Label{"waiting for a worker's Get; a retry waits its delay here", "等 worker 来 Get；重试先在这里等它的延迟"}},
		{ID: LaneDirty, Label: Label{"Dirty, in processing", "dirty（处理中又被标记）"},
			Hint: Label{"added again while a worker has it: queued at Done", "worker 处理期间又被 Add：Done 时才回到队列"}},
		{ID: LaneProcessing, Label: Label{"Processing", "processing（处理中）"},
			Hint: Label{"handed out by Get: no other worker gets it until Done", "Get 交出去了：Done 之前别的 worker 拿不到"}},
		{ID: LaneWorker, Label: Label{"Worker (syncHandler)", "worker（syncHandler）"},
			Hint: Label{"compares the Foo with its Deployment, from the listers", "从 lister 读出 Foo 和 Deployment 并比较"}},
		{ID: LaneWrite, Label: Label{"API writes", "API 写入"},
			Hint: Label{"the Deployment, the Foo's status, Events", "Deployment、Foo 的 status、Event"}},
	}
}

// Counter IDs of a controller's pipeline (ControllerCounters).
const (
	CounterLen        = "len"
	CounterDirty      = "dirty"
	CounterProcessing = "processing"
	CounterRetries    = "retries"
	CounterFailures   = "failures"
	CounterWrites     = "writes"
	CounterController = "controller"
)

// ControllerCounters are stage 08's counters. len and dirty are the
// numbers the terminal prints on each workqueue row (the queue's Len and
// its depth metric: the keys marked and not handed out); the others are
// counted from the rows.
func ControllerCounters() []Counter {
	return []Counter{
		{ID: CounterLen, Label: Label{"workqueue len", "workqueue len"}},
		{ID: CounterDirty, Label: Label{"dirty (depth)", "dirty（depth）"}},
		{ID: CounterProcessing, Label: Label{"processing", "processing"}},
		{ID: CounterRetries, Label: Label{"retries (AddRateLimited)", "重试（AddRateLimited）"}},
		{ID: CounterFailures, Label: Label{"failed reconciles", "失败的 reconcile"}},
		{ID: CounterWrites, Label: Label{"API writes", "API 写入"}},
		{ID: CounterController, Label: Label{"controller", "controller"}},
	}
}

// The fields stage 08's demo attaches to a controller Step's row, besides
// FieldKey (Step.Key) and FieldError (Step.Err).
const (
	FieldWorker   = "worker"   // Step.Worker, when a worker took the step
	FieldLen      = "len"      // Step.Len: the queue's Len after a queue step
	FieldDirty    = "dirty"    // the queue's depth metric, printed beside len
	FieldDelay    = "delay"    // Step.Delay of an AddRateLimited, as time.Duration prints it
	FieldRequeues = "requeues" // Step.Requeues of an AddRateLimited
	FieldDropped  = "dropped"  // "true" on an Add or AddRateLimited the shutting-down queue drops (a prediction: the row comes before the call)
	FieldSent     = "sent"     // "true" on a write's first row, when its request left
)

// Token states of a controller's pipeline.
const (
	stateQueued  = "queued"
	stateDelayed = "delayed" // AddRateLimited: in the queue's waiting heap until its delay is over
	stateDirty   = "dirty"
	stateSynced  = "synced"
	stateFailed  = "failed"
)

// workqueueState is what the fold keeps about the queue besides the
// tokens.
type workqueueState struct {
	// processing: the keys a worker has from Get until Done (the queue's
	// processing set), whatever lane their token is drawn in.
	processing map[string]bool
	// ready: when each delayed token's wait ends, as a row offset.
	ready map[string]time.Duration

	retries, failures, writes int
}

// controllerPipeline is stage 08's.
var controllerPipeline = pipeline{
	rules: map[string]rule{
		"demo":       apiserverRow,
		"standin":    apiserverRow,
		"handler":    keyHandlerRow,
		"workqueue":  workqueueRow,
		"worker":     workerRow,
		"lister":     listerRow,
		"write":      writeRow,
		"controller": controllerRow,
	},
	before: promoteDelayed,
	finish: controllerCounters,
	counters: map[string]string{CounterLen: "0", CounterDirty: "0", CounterProcessing: "0",
		CounterRetries: "0", CounterFailures: "0", CounterWrites: "0", CounterController: "-"},
}

func (w *workqueueState) init() {
	if w.processing == nil {
		w.processing, w.ready = map[string]bool{}, map[string]time.Duration{}
	}
}

func controllerCounters(m *model) {
	m.counters[CounterProcessing] = strconv.Itoa(len(m.wq.processing))
	m.counters[CounterRetries] = strconv.Itoa(m.wq.retries)
	m.counters[CounterFailures] = strconv.Itoa(m.wq.failures)
	m.counters[CounterWrites] = strconv.Itoa(m.wq.writes)
}

// promoteDelayed runs before every row: a delayed token whose wait is over
// by the row's time is added to the queue, as the delaying queue's loop
// does when the delay ends, with Add's rules.
func promoteDelayed(m *model, r timeline.Row, msg *Message) {
	m.wq.init()
	if n := r.Fields[FieldLen]; n != "" {
		m.counters[CounterLen], m.counters[CounterDirty] = n, r.Fields[FieldDirty]
	}
	for _, t := range m.tokens {
		if at, ok := m.wq.ready[t.ID]; ok && t.State == stateDelayed && at <= r.Offset {
			delete(m.wq.ready, t.ID)
			m.add(msg, t)
		}
	}
}

// add is the queue's Add of t's key (util/workqueue/queue.go, Typed.Add): a
// key already marked and waiting is not marked twice (t joins the other
// token); a key being processed is marked dirty and waits for Done; any
// other key is queued.
func (m *model) add(msg *Message, t *Token) {
	switch {
	case m.other(t, LaneQueued, stateQueued) != nil:
		m.move(msg, t, LaneQueued, stateQueued)
		m.gone(msg, t)
	case m.wq.processing[t.Key] && m.other(t, LaneDirty, "") != nil:
		m.move(msg, t, LaneDirty, stateDirty)
		m.gone(msg, t)
	case m.wq.processing[t.Key]:
		m.move(msg, t, LaneDirty, stateDirty)
	default:
		m.move(msg, t, LaneQueued, stateQueued)
	}
}

// other is the oldest live token of t's key in lane (and state) that is
// not t.
func (m *model) other(t *Token, lane, state string) *Token {
	for _, o := range m.tokens {
		if o != t && !o.Gone && o.Key == t.Key && o.Lane == lane && (state == "" || o.State == state) {
			return o
		}
	}
	return nil
}

// inFlight is the token a worker holds for key: in processing, in the
// worker, or at a write.
func (m *model) inFlight(key string) *Token {
	for _, lane := range []string{LaneWrite, LaneWorker, LaneProcessing} {
		if t := m.find(key, lane, ""); t != nil {
			return t
		}
	}
	return nil
}

// apiserverRow: a write the controller did not make (the demo's by hand,
// the stand-in's for kube-controller-manager) lights up the API server.
func apiserverRow(m *model, r timeline.Row, msg *Message) {
	text := r.What + " " + shortName(r.Object)
	if r.Layer == "standin" {
		text += " (stand-in)"
	}
	msg.Flash = &Flash{Lane: LaneAPIServer, Text: text}
}

// keyHandlerRow: an informer called one of the controller's handlers. The
// change crossed the informers to get there; the handler turns it into a
// key, or ignores it: a Deployment no Foo controls or whose Foo is gone, a
// Foo deleted (its Deployment is the garbage collector's business).
func keyHandlerRow(m *model, r timeline.Row, msg *Message) {
	k := key(r)
	op, _, _ := strings.Cut(r.What, " ")
	name := shortName(k)
	if k == "" {
		name = shortName(r.Object)
	}
	t := m.born(k, name+" "+op, LaneAPIServer)
	m.move(msg, t, LaneHandlers, "", LaneInformers)
	ignored := k == "" || r.Fields[FieldError] != "" || (op == "OnDelete" && !strings.HasPrefix(r.Object, "Deployment "))
	if ignored {
		msg.Flash = &Flash{Lane: LaneHandlers, Text: op + " " + shortName(r.Object) + ": ignored"}
		m.gone(msg, t)
	}
}

// workqueueRow: the queue took or handed out a key.
func workqueueRow(m *model, r timeline.Row, msg *Message) {
	k := key(r)
	switch r.What {
	case "Add":
		t := m.find(k, LaneHandlers, "")
		if t == nil {
			t = m.born(k, shortName(k)+" Add", LaneHandlers)
		}
		switch {
		case r.Fields[FieldDropped] != "":
			msg.Flash = &Flash{Lane: LaneQueued, Text: "Add " + shortName(k) + ": dropped, shutting down"}
			m.gone(msg, t)
		default:
			m.add(msg, t)
		}
	case "Get":
		t := m.find(k, LaneQueued, stateQueued)
		if t == nil {
			t = m.find(k, LaneQueued, stateDelayed) // its delay ended between two rows
		}
		if t == nil {
			// No row brought this mark: a delay that ended inside the
			// queue, between two rows. (An Add's row always comes before
			// the Get it feeds: observe prints a call before making it.)
			t = m.born(k, shortName(k)+" Add", LaneQueued)
		}
		delete(m.wq.ready, t.ID)
		m.wq.processing[k] = true
		m.move(msg, t, LaneProcessing, workerState(r))
	case "AddRateLimited":
		t := m.inFlight(k)
		if t == nil {
			t = m.born(k, "", LaneWorker)
		}
		m.wq.retries++
		if r.Fields[FieldDropped] != "" {
			// The queue is shutting down: AddAfter drops it. The token stays
			// with its worker until Done.
			msg.Flash = &Flash{Lane: LaneQueued, Text: "AddRateLimited " + shortName(k) + ": dropped, shutting down"}
			return
		}
		t.Label = shortName(k) + " retry " + r.Fields[FieldRequeues]
		delay, _ := time.ParseDuration(r.Fields[FieldDelay])
		m.wq.ready[t.ID] = r.Offset + delay
		m.move(msg, t, LaneQueued, stateDelayed)
		msg.Flash = &Flash{Lane: LaneQueued, Text: shortName(k) + ": back in " + r.Fields[FieldDelay]}
	case "Done":
		delete(m.wq.processing, k)
		if t := m.inFlight(k); t != nil {
			m.gone(msg, t)
		}
		if t := m.find(k, LaneDirty, ""); t != nil {
			m.move(msg, t, LaneQueued, stateQueued)
		}
	}
}

// workerRow: a worker started a reconcile, or finished one.
func workerRow(m *model, r timeline.Row, msg *Message) {
	k := key(r)
	switch r.What {
	case "sync":
		t := m.find(k, LaneProcessing, "")
		if t == nil {
			t = m.born(k, shortName(k)+" sync", LaneProcessing)
		}
		m.move(msg, t, LaneWorker, workerState(r))
	case "synced", "failed":
		t := m.inFlight(k)
		if t == nil {
			t = m.born(k, "", LaneWorker)
		}
		state := stateSynced
		if r.What == "failed" {
			state = stateFailed
			m.wq.failures++
			t.Label = shortName(k) + " failed"
			msg.Flash = &Flash{Lane: LaneWorker, Text: "✗ " + shortName(k) + " failed"}
		}
		m.move(msg, t, t.Lane, state)
	}
}

// listerRow: the reconcile read an informer's cache.
func listerRow(m *model, r timeline.Row, msg *Message) {
	text := "Get " + shortName(r.Object)
	if r.Fields[FieldError] != "" {
		text = "✗ " + text // not in the cache
	}
	msg.Flash = &Flash{Lane: LaneInformers, Text: text}
}

// writeRow: the reconcile wrote to the API server. A write is two rows,
// its request as it leaves and its answer as it comes back; the token waits
// at the writes from the first until the worker is done with it. An Event
// is recorded in the background and moves nothing.
func writeRow(m *model, r timeline.Row, msg *Message) {
	text := r.What + " " + shortName(r.Object)
	if r.Fields[FieldError] != "" {
		text = "✗ " + text
	}
	if r.Fields[FieldSent] != "" {
		text = "→ " + text
	}
	msg.Flash = &Flash{Lane: LaneWrite, Text: text}
	if r.What == "EVENT" {
		return
	}
	k := key(r)
	t := m.inFlight(k)
	if t == nil {
		t = m.born(k, shortName(k)+" sync", LaneWorker)
	}
	if r.Fields[FieldSent] != "" {
		m.move(msg, t, LaneWrite, "sent")
		return
	}
	state := "ok"
	if r.Fields[FieldError] != "" {
		state = "error"
	} else {
		m.wq.writes++
	}
	m.move(msg, t, LaneWrite, state)
}

// controllerRow: the controller as a whole: started, running, draining,
// stopped.
func controllerRow(m *model, r timeline.Row, msg *Message) {
	words := map[string]string{"Start": "starting", "Synced": "synced", "Workers": "running",
		"ShutDownWithDrain": "draining", "DrainTimeout": "drain cut", "Drained": "drained", "Shutdown": "stopped"}
	if w, ok := words[r.What]; ok {
		m.counters[CounterController] = w
	}
}

// workerState is a token's state in a worker's hands: "worker 2".
func workerState(r timeline.Row) string {
	if w := r.Fields[FieldWorker]; w != "" {
		return "worker " + w
	}
	return ""
}

// shortName drops everything up to the last "/": "Foo stage08/example
// status" is "example status", "stage08/example" is "example".
func shortName(s string) string { return s[strings.LastIndex(s, "/")+1:] }
