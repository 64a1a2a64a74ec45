// Not a mirror of client-go: the browser view's reading of a demo's
// timeline. It folds the rows, one at a time, into tokens that move from
// lane to lane and into counters, and says in each Message what changed, so
// that the page only draws.

package webview

import (
	"fmt"
	"slices"
	"strings"

	"informer-from-scratch/internal/timeline"
)

// Token is one thing moving through the lanes: one change of one object
// (Key set), or one step about many objects (a list, a bookmark).
type Token struct {
	ID    string `json:"id"`
	Key   string `json:"key,omitempty"`
	Label string `json:"label"`
	// Lane is where the token is now: a lane's ID, suffixed with ":" and the
	// handler's name for a per-listener lane ("listener:audit").
	Lane string `json:"lane"`
	// Path is every lane the token has been in, in order, from its birth.
	Path []string `json:"path"`
	// State says more about its place: "queued" or "popped" in the queue,
	// "waiting" in a ring, "handling" in a handler.
	State string `json:"state,omitempty"`
	// Gone: the token has left the pipeline (its step is over, or it was
	// merged into another); the page fades it out.
	Gone bool `json:"gone,omitempty"`
}

// Move is a token's new state after a row. From is where it was (for a
// copy made by the processor, the processor); Via are the lanes it passed
// through on the way, to be drawn as one trip.
type Move struct {
	Token
	From string   `json:"from,omitempty"`
	Via  []string `json:"via,omitempty"`
}

// Flash is a lane lighting up without a token: a request, a write, an error.
type Flash struct {
	Lane string `json:"lane"`
	Text string `json:"text"`
}

// Listener is one event handler registration, as the page shows it.
type Listener struct {
	Name string `json:"name"`
	// Depth is how many notifications it has been given and not yet handed
	// to its handler: its ring, plus the one in hand.
	Depth  int  `json:"depth"`
	Synced bool `json:"synced"`
}

// State is what the page shows besides the tokens.
type State struct {
	Counters  map[string]string `json:"counters"`
	Listeners []Listener        `json:"listeners"`
}

// The kinds of Message.
const (
	// MessageRow is one timeline row and what it changed.
	MessageRow = "row"
	// MessageListener is a registration declared (Server.Listener).
	MessageListener = "listener"
)

// Message is one message of the stream.
type Message struct {
	Seq   int           `json:"seq"`
	Kind  string        `json:"kind"`
	Row   *timeline.Row `json:"row,omitempty"`
	Moves []Move        `json:"moves,omitempty"`
	Flash *Flash        `json:"flash,omitempty"`
	State State         `json:"state"`
}

// rule folds one row of a layer into the model.
type rule func(m *model, r timeline.Row, msg *Message)

// pipeline is what one kind of demo needs from the fold: its rules by row
// layer, what to do before any event row (nil: nothing), and the counters
// it derives from the tokens once a message is complete.
type pipeline struct {
	rules  map[string]rule
	before func(m *model, r timeline.Row, msg *Message)
	finish func(m *model)
	// counters are the counters' values before the first row.
	counters map[string]string
}

// model is the fold. It is not safe for concurrent use: the Server calls
// it under its lock, in the timeline's order.
type model struct {
	pipeline
	tokens    []*Token // live, oldest first
	nextID    int
	seq       int
	listeners []string // in registration order
	synced    map[string]bool
	counters  map[string]string
	cache     int
	replaces  int
	wq        workqueueState // stage 08's pipeline only
}

func newModel(p pipeline) *model {
	m := &model{pipeline: p, synced: map[string]bool{}, counters: map[string]string{}}
	for k, v := range p.counters {
		m.counters[k] = v
	}
	return m
}

// row folds one timeline row and returns what it changed.
func (m *model) row(r timeline.Row) Message {
	msg := m.message(MessageRow)
	msg.Row = &r
	if r.Kind == timeline.KindEvent {
		if m.before != nil {
			m.before(m, r, &msg)
		}
		if f := m.rules[r.Layer]; f != nil {
			f(m, r, &msg)
		}
	}
	return m.finish(msg)
}

// listener declares a registration: from now on every notification the
// processor distributes reaches it too.
func (m *model) listener(name string) Message {
	m.addListener(name)
	return m.finish(m.message(MessageListener))
}

func (m *model) message(kind string) Message {
	m.seq++
	return Message{Seq: m.seq, Kind: kind}
}

// finish drops the tokens that left and fills in the state.
func (m *model) finish(msg Message) Message {
	m.tokens = slices.DeleteFunc(m.tokens, func(t *Token) bool { return t.Gone })
	if m.pipeline.finish != nil {
		m.pipeline.finish(m)
	}
	msg.State = m.state()
	return msg
}

func (m *model) state() State {
	s := State{Counters: map[string]string{}}
	for k, v := range m.counters {
		s.Counters[k] = v
	}
	for _, name := range m.listeners {
		depth := 0
		for _, t := range m.tokens {
			if t.Lane == LaneListener+":"+name {
				depth++
			}
		}
		s.Listeners = append(s.Listeners, Listener{Name: name, Depth: depth, Synced: m.synced[name]})
	}
	return s
}

// snapshot is the live tokens, for a page that connects now.
func (m *model) snapshot() []Token {
	out := make([]Token, len(m.tokens))
	for i, t := range m.tokens {
		out[i] = *t
		out[i].Path = slices.Clone(t.Path)
	}
	return out
}

func (m *model) addListener(name string) {
	if !slices.Contains(m.listeners, name) {
		m.listeners = append(m.listeners, name)
	}
}

// born makes a token in lane; the caller then moves it.
func (m *model) born(key, label, lane string) *Token {
	m.nextID++
	t := &Token{ID: fmt.Sprintf("t%d", m.nextID), Key: key, Label: label, Lane: lane, Path: []string{lane}}
	m.tokens = append(m.tokens, t)
	return t
}

// find returns the oldest live token with key in lane (and in state, unless
// state is ""), or nil.
func (m *model) find(key, lane, state string) *Token {
	for _, t := range m.tokens {
		if t.Key == key && t.Lane == lane && (state == "" || t.State == state) {
			return t
		}
	}
	return nil
}

// move puts t in lane, through via, and records the move in msg.
func (m *model) move(msg *Message, t *Token, lane, state string, via ...string) {
	from := t.Lane
	for _, l := range append(via, lane) {
		if t.Path[len(t.Path)-1] != l {
			t.Path = append(t.Path, l)
		}
	}
	t.Lane, t.State = lane, state
	m.record(msg, t, from, via)
}

// gone marks t as left, and records it.
func (m *model) gone(msg *Message, t *Token) {
	t.Gone = true
	m.record(msg, t, t.Lane, nil)
}

func (m *model) record(msg *Message, t *Token, from string, via []string) {
	mv := Move{Token: *t, From: from, Via: slices.Clone(via)}
	mv.Path = slices.Clone(t.Path)
	// A token moved twice by one row is drawn once, at its last place.
	for i := range msg.Moves {
		if msg.Moves[i].ID == t.ID {
			mv.From, mv.Via = msg.Moves[i].From, append(msg.Moves[i].Via, via...)
			msg.Moves[i] = mv
			return
		}
	}
	msg.Moves = append(msg.Moves, mv)
}

// copyTo makes a copy of t in lane, as the processor does when it hands one
// notification to every listener.
func (m *model) copyTo(msg *Message, t *Token, lane, state string) {
	c := m.born(t.Key, t.Label, t.Lane)
	c.Path = slices.Clone(t.Path)
	m.move(msg, c, lane, state)
}

// key is the object a row is about: its "key" field, or "" for a row about
// many objects.
func key(r timeline.Row) string { return r.Fields["key"] }

// label is how a token is written on the page: the object's name (without
// its namespace) or the row's object, then what the layer did.
func label(r timeline.Row) string {
	name := r.Object
	if k := key(r); k != "" {
		name = k[strings.LastIndex(k, "/")+1:]
	}
	return name + " " + r.What
}
