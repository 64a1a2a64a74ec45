// Not a mirror of client-go: how each row of stage 06's demo moves tokens.
// The layers are the Observer's (06-sharedinformer/observe), plus the
// demo's own rows: "demo" (its writes and the partition), "http" (the
// informer's requests), "watch" (a watch's ERROR event) and "synced".

package webview

import (
	"strconv"
	"strings"

	"informer-from-scratch/internal/timeline"
)

// The fields a demo attaches to an Observer row (timeline.EventWith), the
// Observation's facts without parsing its detail.
const (
	FieldKey     = "key"     // Observation.Key; absent for a step about many objects
	FieldRV      = "rv"      // Observation.ResourceVersion
	FieldHandler = "handler" // Observation.Handler
	FieldCount   = "count"   // how many objects a list holds, for Replace rows
	FieldDeltas  = "deltas"  // how many deltas a popped item held (a DeltaFIFO coalesces)
	FieldError   = "error"   // Observation.Err
)

// informerPipeline is stage 06's: one informer, traced layer by layer.
var informerPipeline = pipeline{
	rules:  informerRules,
	finish: informerCounters,
	counters: map[string]string{CounterQueue: "0", CounterCache: "0", CounterRelists: "0",
		CounterWatch: "-", CounterResourceVersion: "-", CounterSynced: "false"},
}

// informerRules are stage 06's rules, by row layer.
var informerRules = map[string]rule{
	"demo":      demoRow,
	"http":      httpRow,
	"watch":     watchRow,
	"reflector": reflectorRow,
	"queue":     queueRow,
	"indexer":   indexerRow,
	"processor": processorRow,
	"handler":   handlerRow,
	"synced":    syncedRow,
}

// informerCounters derives the counters the tokens and the fold's tallies
// say: the items queued and not yet popped, the cache's size, the relists.
func informerCounters(m *model) {
	queued := 0
	for _, t := range m.tokens {
		if t.Lane == LaneQueue && t.State == "queued" {
			queued++
		}
	}
	m.counters[CounterQueue] = strconv.Itoa(queued)
	m.counters[CounterCache] = strconv.Itoa(m.cache)
	m.counters[CounterRelists] = strconv.Itoa(max(0, m.replaces-1))
}

// demoRow: the demo's writes light up the API server; a partition changes
// the watch's state. Tokens are born when the reflector hears of a change,
// not at the write: a write's row may come after its watch event, and a
// change made while the watch is cut reaches the informer only as a list.
func demoRow(m *model, r timeline.Row, msg *Message) {
	switch r.What {
	case "CUT":
		m.counters[CounterWatch] = "cut"
	case "RESTORE":
		m.counters[CounterWatch] = "restored"
	case "HANDLER":
		return // a handler added: the informer's side, not the server's
	}
	name := r.Object
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	} else if r.What == "CUT" || r.What == "RESTORE" {
		name = "watch"
	}
	msg.Flash = &Flash{Lane: LaneAPIServer, Text: r.What + " " + name}
}

// httpRow: one of the informer's requests, named LIST or WATCH as a reader
// of the reflector chapter would.
func httpRow(m *model, r timeline.Row, msg *Message) {
	verb := "LIST"
	if strings.Contains(r.Detail, "watch=true") {
		verb = "WATCH"
		if i := strings.Index(r.Detail, "resourceVersion="); i >= 0 {
			rv, _, _ := strings.Cut(r.Detail[i+len("resourceVersion="):], "&")
			verb += " rv=" + rv
		}
		m.counters[CounterWatch] = "open"
	}
	msg.Flash = &Flash{Lane: LaneAPIServer, Text: verb}
}

// watchRow: an ERROR event ends the watch (a 410 after a compaction).
func watchRow(m *model, r timeline.Row, msg *Message) {
	code, _, _ := strings.Cut(r.Detail, ":")
	m.counters[CounterWatch] = "ERROR " + code
	msg.Flash = &Flash{Lane: LaneAPIServer, Text: "ERROR " + code}
}

// reflectorRow: the reflector called the queue. The token comes from the
// API server, passes the reflector and waits in the queue.
func reflectorRow(m *model, r timeline.Row, msg *Message) {
	if rv := r.Fields[FieldRV]; rv != "" {
		m.counters[CounterResourceVersion] = rv
	}
	if r.Fields[FieldError] != "" {
		msg.Flash = &Flash{Lane: LaneQueue, Text: "error: " + r.Fields[FieldError]}
		return
	}
	birth := LaneAPIServer
	switch r.What {
	case "Replace":
		m.replaces++
		m.counters[CounterWatch] = "open"
	case "Resync":
		birth = LaneReflector // a resync replays what the queue's consumer knows
	}
	t := m.find(key(r), LaneAPIServer, "")
	if t == nil || key(r) == "" {
		t = m.born(key(r), "", birth)
	}
	t.Label = label(r)
	m.move(msg, t, LaneQueue, "queued", LaneReflector)
}

// queueRow: processLoop popped an item. A DeltaFIFO may have merged several
// changes of one object into it; a relist through a DeltaFIFO is one item
// per object, made from the reflector's one Replace.
func queueRow(m *model, r timeline.Row, msg *Message) {
	t := m.find(key(r), LaneQueue, "queued")
	if t == nil {
		if list := m.find("", LaneQueue, "queued"); list != nil && key(r) != "" {
			m.gone(msg, list) // a DeltaFIFO's Replace, split into items
		}
		t = m.born(key(r), "", LaneReflector)
	}
	t.Label = label(r)
	m.move(msg, t, LaneQueue, "popped")
	n, _ := strconv.Atoi(r.Fields[FieldDeltas])
	for i := 1; i < n; i++ {
		if merged := m.find(key(r), LaneQueue, "queued"); merged != nil {
			m.gone(msg, merged)
		}
	}
}

// indexerRow: a write to the cache. A token about many objects ends here:
// its objects are in the cache, and their notifications start from it.
func indexerRow(m *model, r timeline.Row, msg *Message) {
	t := m.find(key(r), LaneQueue, "popped")
	if t == nil {
		t = m.born(key(r), "", LaneQueue)
	}
	t.Label = label(r)
	m.move(msg, t, LaneIndexer, "")
	if r.Fields[FieldError] == "" {
		switch r.What {
		case "Add":
			m.cache++
		case "Delete":
			m.cache--
		case "Replace":
			m.cache, _ = strconv.Atoi(r.Fields[FieldCount])
		}
	}
	if key(r) == "" {
		m.gone(msg, t)
	}
}

// processorRow: a notification, copied to every listener's ring; or a
// replay from the cache to one late handler. The demo's handlers ask for no
// resync, so every listener is due for every sync notification too (stage
// 05's Distribute): every notification reaches them all.
func processorRow(m *model, r timeline.Row, msg *Message) {
	var t *Token
	if r.What != "replay" {
		t = m.find(key(r), LaneIndexer, "")
	}
	if t == nil {
		t = m.born(key(r), "", LaneIndexer) // read from the cache
	}
	t.Label = label(r)
	m.move(msg, t, LaneProcessor, "")
	to := m.listeners
	if h := r.Fields[FieldHandler]; r.What == "replay" && h != "" {
		m.addListener(h)
		to = []string{h}
	}
	for _, name := range to {
		m.copyTo(msg, t, LaneListener+":"+name, "waiting")
	}
	m.gone(msg, t)
}

// handlerRow: a listener's goroutine calls its handler with the oldest
// notification of its ring. Calls to one handler are sequential, so the
// previous call has returned. Only the Observer's rows are calls, and they
// name their handler; a row of the layer that names none is the demo's
// own note about a handler (stage 06's STALLS), which moves nothing. Folded
// as a call, it declared a listener named "", whose ring then got a copy
// of every notification and was never drained.
func handlerRow(m *model, r timeline.Row, msg *Message) {
	name := r.Fields[FieldHandler]
	if name == "" {
		return
	}
	m.addListener(name)
	ring, call := LaneListener+":"+name, LaneHandler+":"+name
	for _, prev := range m.tokens {
		if prev.Lane == call && !prev.Gone {
			m.gone(msg, prev)
		}
	}
	t := m.find(key(r), ring, "")
	if t == nil {
		t = m.born(key(r), "", ring)
	}
	t.Label = label(r)
	m.move(msg, t, call, "handling")
}

// syncedRow: a HasSynced became true, the informer's or a registration's.
func syncedRow(m *model, r timeline.Row, msg *Message) {
	if r.ObjectText != nil && r.ObjectText.EN == "the informer" { // words, in the learner's language
		m.counters[CounterSynced] = "true"
		return
	}
	m.synced[r.Object] = true
}
