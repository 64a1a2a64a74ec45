package deltafifo

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// opKind is one thing a scenario does: a Reflector call, a consumer Pop, or
// a change to the consumer's store behind the queue's back.
type opKind int

const (
	opAdd opKind = iota
	opUpdate
	opDelete
	opReplace
	opResync
	opPop
	opPopBatch // RealFIFO only; a DeltaFIFO's scenarios Pop instead
	opBookmark // RealFIFO only
	opClose
	opKnownSet    // the consumer's store gains obj without the queue knowing
	opKnownDelete // the consumer's store loses obj without the queue knowing
	opGhost       // set what the store says of its ghost key (see ghostMode)
)

type op struct {
	kind   opKind
	obj    spec
	list   []spec    // opReplace
	rv     string    // opReplace, opBookmark
	fail   bool      // opPop, opPopBatch: process returns an error
	panics bool      // opPop, opPopBatch: process panics
	ghost  ghostMode // opGhost
}

func (o op) String() string {
	switch o.kind {
	case opAdd:
		return "Add " + o.obj.String()
	case opUpdate:
		return "Update " + o.obj.String()
	case opDelete:
		return "Delete " + o.obj.String()
	case opReplace:
		parts := make([]string, len(o.list))
		for i, s := range o.list {
			parts[i] = s.String()
		}
		return "Replace@" + o.rv + " [" + strings.Join(parts, " ") + "]"
	case opResync:
		return "Resync"
	case opPop, opPopBatch:
		name := map[opKind]string{opPop: "Pop", opPopBatch: "PopBatch"}[o.kind]
		if o.fail {
			name += "(process fails)"
		}
		if o.panics {
			name += "(process panics)"
		}
		return name
	case opBookmark:
		return "Bookmark@" + o.rv
	case opClose:
		return "Close"
	case opKnownSet:
		return "store gains " + o.obj.String()
	case opKnownDelete:
		return "store loses " + o.obj.String()
	case opGhost:
		return "store's ghost key: " + o.ghost.String()
	}
	return fmt.Sprintf("op(%d)", o.kind)
}

func (s spec) String() string {
	switch s.kind {
	case explicitKey:
		return "key(ns/" + s.name + ")"
	case tombstoneObj:
		return fmt.Sprintf("tombstone(ns/%s, %s@%d)", s.name, s.name, s.rv)
	case badObj:
		return "bad(" + s.name + ")"
	}
	return fmt.Sprintf("%s@%d", s.name, s.rv)
}

// step is what one op produced, in neutral form.
type step struct {
	Op string
	// Err is the error the op returned.
	Err string
	// Process is what the process function was handed ("" if not called),
	// Initial its isInInitialList, SyncedInProcess whether HasSynced's
	// channel was already closed while it ran.
	Process         string
	Initial         bool
	SyncedInProcess bool
	// Returned is what Pop returned; Panic what a panicking process let
	// through Pop.
	Returned string
	Panic    string
	// Reported is how many errors the op reported through
	// utilruntime.HandleError.
	Reported int
	// After the op: HasSynced and the queue's length (keys for a
	// DeltaFIFO, items for a RealFIFO).
	HasSynced bool
	Len       int
}

// runOps applies ops to q in order and records each step.
func runOps(q *queueUnderTest, ops []op) []step {
	steps := make([]step, 0, len(ops))
	closed := false
	for _, o := range ops {
		s := step{Op: o.String()}
		before := reported.Load()
		switch o.kind {
		case opAdd:
			s.Err = errString(q.add(q.build(o.obj)))
		case opUpdate:
			s.Err = errString(q.update(q.build(o.obj)))
		case opDelete:
			s.Err = errString(q.del(q.build(o.obj)))
		case opReplace:
			objs := make([]interface{}, len(o.list))
			for i, sp := range o.list {
				objs[i] = q.build(sp)
			}
			s.Err = errString(q.replace(objs, o.rv))
		case opResync:
			s.Err = errString(q.resync())
		case opPop, opPopBatch:
			// A Pop on an empty, open queue would block for ever.
			if q.length() == 0 && !closed {
				s.Process = "(empty: not popped)"
				break
			}
			popOnce(q, o, &s)
		case opBookmark:
			if q.bookmark != nil {
				s.Err = errString(q.bookmark(o.rv))
			}
		case opClose:
			q.close()
			closed = true
		case opKnownSet:
			if q.known != nil {
				s.Err = errString(q.known.Store.Add(q.build(o.obj)))
			}
		case opKnownDelete:
			if q.known != nil {
				s.Err = errString(q.known.Store.Delete(q.build(o.obj)))
			}
		case opGhost:
			if q.known != nil {
				q.known.ghost = o.ghost
			}
		}
		s.Reported = int(reported.Load() - before)
		s.HasSynced = q.hasSynced()
		s.Len = q.length()
		steps = append(steps, s)
	}
	return steps
}

// popOnce pops with a process function that acts like the informer's: it
// records what it got and files it in the consumer's store.
func popOnce(q *queueUnderTest, o op, s *step) {
	consume := func(ds Deltas) error {
		s.SyncedInProcess = isDone(q.done())
		if o.panics {
			panic("process panicked")
		}
		if o.fail {
			return errors.New("process failed")
		}
		if q.known != nil {
			return q.known.apply(ds)
		}
		return nil
	}
	single := func(obj interface{}, initial bool) error {
		s.Process, s.Initial = describe(obj), initial
		ds, ok := q.asDeltas(obj)
		if !ok {
			return fmt.Errorf("process got %T, not Deltas", obj)
		}
		return consume(ds)
	}
	batch := func(ds Deltas, initial bool) error {
		s.Process, s.Initial = "batch["+describeDeltas(ds)+"]", initial
		return consume(ds)
	}

	defer func() {
		if p := recover(); p != nil {
			s.Panic = fmt.Sprint(p)
		}
	}()
	if o.kind == opPopBatch && q.popBatch != nil {
		s.Err = errString(q.popBatch(batch, single))
		return
	}
	ret, err := q.pop(single)
	s.Returned, s.Err = describe(ret), errString(err)
}

func isDone(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// diffQueues runs ops on client-go's queue and on ours and reports the
// first step where they differ. A random scenario runs to a hundred ops and
// a lab check shows a failure's first thirty lines, so the report puts
// first what a reader needs to find the cause, which may be several ops
// before the step that shows it (a Replace that queued a wrong tombstone
// shows when a Pop hands it out): the ops up to that step, then that
// step's diff. The ops after it, for a replay, come last.
func diffQueues(t *testing.T, c fifoConfig, ops []op, clientGo, ours *queueUnderTest) {
	t.Helper()
	want, got := runOps(clientGo, ops), runOps(ours, ops)
	first := 0
	for first < len(want) && first < len(got) && cmp.Equal(want[first], got[first]) {
		first++
	}
	if first == len(want) && first == len(got) {
		return
	}
	if first == len(want) || first == len(got) {
		// runOps records one step per op on either side: cannot happen.
		t.Fatalf("client-go recorded %d steps, ours %d, for %d ops", len(want), len(got), len(ops))
	}
	later := 0
	for i := first + 1; i < len(want); i++ {
		if !cmp.Equal(want[i], got[i]) {
			later++
		}
	}
	laterSteps := fmt.Sprintf("%d later steps differ too", later)
	if later == 1 {
		laterSteps = "1 later step differs too"
	}
	t.Errorf("config %v\nops, up to the first one after which the queues differ:\n  %s   <- here\n"+
		"the step of op %d differs (-client-go +ours):\n%s"+
		"%s; the ops after op %d:\n  %s",
		c, joinOps(ops[:first+1]), first, stepDiff(want[first], got[first]),
		laterSteps, first, joinOpsFrom(first+1, ops[first+1:]))
}

// stepDiff shows two steps field by field, one line each, a differing field
// twice: "-" client-go's, "+" ours. (cmp.Diff would break a long string
// that differs in the middle into pieces.)
func stepDiff(want, got step) string {
	var b strings.Builder
	w, g := reflect.ValueOf(want), reflect.ValueOf(got)
	for i := range w.NumField() {
		name := w.Type().Field(i).Name + ":"
		wf, gf := fmt.Sprintf("%#v", w.Field(i).Interface()), fmt.Sprintf("%#v", g.Field(i).Interface())
		if wf == gf {
			fmt.Fprintf(&b, "    %-16s %s\n", name, wf)
			continue
		}
		fmt.Fprintf(&b, "  - %-16s %s\n  + %-16s %s\n", name, wf, name, gf)
	}
	return b.String()
}

func joinOps(ops []op) string { return joinOpsFrom(0, ops) }

// joinOpsFrom numbers ops from start, one a line.
func joinOpsFrom(start int, ops []op) string {
	if len(ops) == 0 {
		return "(none)"
	}
	parts := make([]string, len(ops))
	for i, o := range ops {
		parts[i] = fmt.Sprintf("%2d %s", start+i, o)
	}
	return strings.Join(parts, "\n  ")
}

// ---- decoding a scenario from bytes (fuzzing and the seeded random test) ----

// opTable weighs the op kinds: a byte picks one of these 32 entries.
var opTable = [32]opKind{
	opAdd, opAdd, opAdd, opAdd, opUpdate, opUpdate, opUpdate, opUpdate,
	opDelete, opDelete, opDelete, opReplace, opReplace, opResync, opResync, opPop,
	opPop, opPop, opPop, opPop, opPop, opPopBatch, opPopBatch, opPopBatch,
	opBookmark, opBookmark, opKnownSet, opKnownDelete, opGhost, opClose, opAdd, opPop,
}

var testNames = []string{"a", "b", "c", "d", "e"}

// decoder reads a scenario from fuzz bytes; running out of bytes ends it.
type decoder struct {
	data []byte
	rv   int
}

func (d *decoder) next() (byte, bool) {
	if len(d.data) == 0 {
		return 0, false
	}
	b := d.data[0]
	d.data = d.data[1:]
	return b, true
}

// obj decodes an object: mostly pods, sometimes an ExplicitKey, a tombstone
// or an object without metadata. Each gets a fresh resourceVersion.
func (d *decoder) obj() (spec, bool) {
	b, ok := d.next()
	if !ok {
		return spec{}, false
	}
	d.rv++
	s := spec{kind: podObj, name: testNames[int(b)%len(testNames)], rv: d.rv}
	switch (b / 5) % 16 {
	case 13:
		s.kind = explicitKey
	case 14:
		s.kind = tombstoneObj
	case 15:
		s.kind = badObj
	}
	return s, true
}

// decodeScenario turns bytes into a configuration and a list of ops. The
// first byte is the configuration; realFIFO says which queue it is for.
func decodeScenario(data []byte, realFIFO bool) (fifoConfig, []op) {
	d := &decoder{data: data}
	var c fifoConfig
	if b, ok := d.next(); ok {
		c.transformer = b&1 != 0
		if realFIFO {
			c.atomic = b&2 != 0
			c.bookmark = c.atomic && b&4 != 0
			c.unlock = c.atomic && b&8 != 0
		} else {
			c.noKnownObjects = b&2 != 0
			c.emitReplaced = b&4 == 0 // the informer's setting is the common case
		}
		// Half the scenarios start with a list, as an informer does, so the
		// initial-list rules (isInInitialList, HasSynced) get exercised.
		c.startWithReplace = b&16 != 0
	}
	var ops []op
	for len(ops) < 200 {
		b, ok := d.next()
		if !ok {
			break
		}
		o := op{kind: opTable[int(b)%len(opTable)]}
		if len(ops) == 0 && c.startWithReplace {
			o.kind = opReplace
		}
		if o.kind == opPopBatch && !realFIFO {
			o.kind = opPop // a DeltaFIFO has no PopBatch: say Pop, as it does
		}
		switch o.kind {
		case opAdd, opUpdate, opDelete, opKnownSet, opKnownDelete:
			if o.obj, ok = d.obj(); !ok {
				return c, ops
			}
		case opReplace:
			n, ok := d.next()
			if !ok {
				return c, ops
			}
			for range int(n) % 5 {
				s, ok := d.obj()
				if !ok {
					return c, ops
				}
				o.list = append(o.list, s)
			}
			d.rv++
			o.rv = fmt.Sprint(d.rv)
		case opBookmark:
			d.rv++
			o.rv = fmt.Sprint(d.rv)
		case opPop, opPopBatch:
			// The high bits of the op byte pick the rare failures.
			o.fail = b>>5 == 6
			o.panics = b>>5 == 7
		case opGhost:
			// And what the store says of its ghost key.
			o.ghost = ghostMode((b >> 5) % 4)
		}
		ops = append(ops, o)
	}
	return c, ops
}
