package deltafifo

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The rules of both queues, one table case each. Every case states the rule
// as the output a consumer sees ("want", written from the rule, not copied
// from a run), checks that client-go v0.37.2 produces exactly that, and then
// that ours produces what client-go does, step by step.

// Shorthands for writing scenarios.
func add(s spec) op    { return op{kind: opAdd, obj: s} }
func update(s spec) op { return op{kind: opUpdate, obj: s} }
func del(s spec) op    { return op{kind: opDelete, obj: s} }
func replace(rv string, list ...spec) op {
	return op{kind: opReplace, rv: rv, list: list}
}

var (
	pop      = op{kind: opPop}
	popBatch = op{kind: opPopBatch}
	resync   = op{kind: opResync}
	closeQ   = op{kind: opClose}
)

func bookmark(rv string) op { return op{kind: opBookmark, rv: rv} }
func knownSet(s spec) op    { return op{kind: opKnownSet, obj: s} }
func ghost(g ghostMode) op  { return op{kind: opGhost, ghost: g} }
func key(name string) spec  { return spec{kind: explicitKey, name: name} }
func bad(name string) spec  { return spec{kind: badObj, name: name} }

// tombstone is a DeletedFinalStateUnknown handed to Delete by hand.
func tombstone(name string, rv int) spec { return spec{kind: tombstoneObj, name: name, rv: rv} }

// summarize keeps what a rule talks about: what each Pop handed to process
// (marked "(initial)" when isInInitialList was true), errors, panics, errors
// reported through utilruntime.HandleError, and the moment HasSynced turns
// true: "synced" after the step that turned it, or, when it turned during a
// pop, before process ran, "(initial; synced before process)" on that pop.
func summarize(steps []step) []string {
	var out []string
	synced := false
	for _, s := range steps {
		if s.Process != "" && s.Process != "(empty: not popped)" {
			line := "pop: " + s.Process
			switch {
			case s.Initial && s.SyncedInProcess && !synced:
				line += " (initial; synced before process)"
				synced = true
			case s.Initial:
				line += " (initial)"
			}
			out = append(out, line)
		}
		if s.Err != "" {
			out = append(out, "error: "+s.Err)
		}
		if s.Panic != "" {
			out = append(out, "panic: "+s.Panic)
		}
		if s.Reported > 0 {
			out = append(out, fmt.Sprintf("reported %d", s.Reported))
		}
		if s.HasSynced && !synced {
			out = append(out, "synced")
		}
		synced = s.HasSynced
	}
	return out
}

// A ruleCase is one rule: a scenario and what a consumer sees of it. For
// the DeltaFIFO's rules, exercises names the lab's function(s) the rule
// tests most, the first the likeliest at fault when the rule fails: a lab
// check lists the failing rules in this order, and a learner starts at
// the first.
type ruleCase struct {
	name      string
	exercises string
	config    fifoConfig
	ops       []op
	want      []string
}

func checkRules(t *testing.T, cases []ruleCase, clientGo, ours func(fifoConfig) *queueUnderTest) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cgSteps := runOps(clientGo(tc.config), tc.ops)
			if diff := cmp.Diff(tc.want, summarize(cgSteps)); diff != "" {
				t.Errorf("client-go does not behave as the rule says (-rule +client-go):\n%s", diff)
			}
			if diff := cmp.Diff(cgSteps, runOps(ours(tc.config), tc.ops)); diff != "" {
				exercises := ""
				if tc.exercises != "" {
					exercises = "this rule exercises " + tc.exercises + "\n"
				}
				t.Errorf("%sops:\n  %s\nsteps differ (-client-go +ours):\n%s", exercises, joinOps(tc.ops), diff)
			}
		})
	}
}

const keyErrorNoMeta = "couldn't create key for object {Name:x}: object has no meta: object does not implement the Object interfaces"

// TestDeltaFIFORules: the rules of the lab's three functions come first,
// each group in the order a learner writes them working outwards from Pop
// (every rule pops through it): Pop alone, Pop with the first list,
// isDeletionDup, then Replace; the rules of the code around them last.
// So the first rule that fails points at the function at fault, and says
// which one it is.
func TestDeltaFIFORules(t *testing.T) {
	informer := fifoConfig{emitReplaced: true} // KnownObjects on, as in an informer
	checkRules(t, []ruleCase{{
		name:      "changes to one object accumulate under its key; keys leave in order of first arrival",
		exercises: "Pop",
		config:    informer,
		ops:       []op{add(pod("a", 1)), add(pod("b", 2)), update(pod("a", 3)), del(pod("b", 4)), update(pod("c", 5)), pop, pop, pop},
		want:      []string{"synced", "pop: Added a@1, Updated a@3", "pop: Added b@2, Deleted b@4", "pop: Updated c@5"},
	}, {
		name:      "a closed queue still takes writes and hands them out; Pop fails only when it is empty",
		exercises: "Pop",
		config:    informer,
		ops:       []op{closeQ, add(pod("a", 1)), pop, pop},
		want:      []string{"synced", "pop: Added a@1", "error: DeltaFIFO: manipulating with closed queue"},
	}, {
		name:      "a process error is returned by Pop and the item is not requeued",
		exercises: "Pop",
		config:    informer,
		ops:       []op{add(pod("a", 1)), {kind: opPop, fail: true}, pop},
		want:      []string{"synced", "pop: Added a@1", "error: process failed"},
	}, {
		name:      "a panic in process leaves Pop; the item is gone and the queue still works",
		exercises: "Pop",
		config:    informer,
		ops:       []op{add(pod("a", 1)), add(pod("b", 2)), {kind: opPop, panics: true}, pop},
		want:      []string{"synced", "pop: Added a@1", "panic: process panicked", "pop: Added b@2"},
	}, {
		name:      "Pop counts an item of the first list as it takes it: HasSynced is already true while process handles the last one",
		exercises: "Pop (the list is Replace's)",
		config:    informer,
		ops:       []op{replace("2", pod("a", 1)), pop},
		want:      []string{"pop: Replaced a@1 (initial; synced before process)"},
	}, {
		name:      "isInInitialList is true for the first list's items; HasSynced turns true as the last one is popped",
		exercises: "Pop (the list is Replace's)",
		config:    informer,
		ops:       []op{replace("2", pod("a", 1), pod("b", 2)), add(pod("c", 3)), pop, pop, pop},
		want:      []string{"pop: Replaced a@1 (initial)", "pop: Replaced b@2 (initial; synced before process)", "pop: Added c@3"},
	}, {
		name:      "a Resync before any list does not count as a write; an Add does",
		exercises: "Pop",
		config:    informer,
		ops:       []op{knownSet(pod("a", 1)), resync, pop, add(pod("b", 2)), pop},
		want:      []string{"pop: Sync a@1 (initial)", "synced", "pop: Added b@2"},
	}, {
		name:      "two deletions in a row become one: the older, when both are real",
		exercises: "isDeletionDup",
		config:    informer,
		ops:       []op{add(pod("a", 1)), pop, del(pod("a", 2)), del(pod("a", 3)), pop},
		want:      []string{"synced", "pop: Added a@1", "pop: Deleted a@2"},
	}, {
		name:      "two deletions in a row become one: of two tombstones, the newer",
		exercises: "isDeletionDup",
		config:    informer,
		ops:       []op{add(pod("a", 1)), pop, del(tombstone("a", 2)), del(tombstone("a", 3)), pop},
		want:      []string{"synced", "pop: Added a@1", "pop: Deleted tombstone(ns/a, a@3)"},
	}, {
		name:      "two deletions in a row become one: a real deletion replaces a tombstone before it",
		exercises: "isDeletionDup (the tombstone is Replace's)",
		config:    informer,
		ops:       []op{add(pod("a", 1)), pop, replace("5"), del(pod("a", 6)), pop},
		want:      []string{"synced", "pop: Added a@1", "pop: Deleted a@6"},
	}, {
		name:      "two deletions in a row become one: a tombstone after a real deletion is dropped",
		exercises: "isDeletionDup (the tombstone is Replace's)",
		config:    informer,
		ops:       []op{add(pod("a", 1)), pop, del(pod("a", 2)), replace("5"), pop},
		want:      []string{"synced", "pop: Added a@1", "pop: Deleted a@2"},
	}, {
		name:      "Replace emits Replaced with EmitDeltaTypeReplaced",
		exercises: "Replace",
		config:    informer,
		ops:       []op{replace("3", pod("a", 1), pod("b", 2)), pop, pop},
		want:      []string{"pop: Replaced a@1 (initial)", "pop: Replaced b@2 (initial; synced before process)"},
	}, {
		name:      "Replace emits Sync without EmitDeltaTypeReplaced, like a resync",
		exercises: "Replace",
		config:    fifoConfig{},
		ops:       []op{replace("3", pod("a", 1), pod("b", 2)), pop, pop},
		want:      []string{"pop: Sync a@1 (initial)", "pop: Sync b@2 (initial; synced before process)"},
	}, {
		name:      "Replace emits a tombstone for a known object the list lacks, after the listed ones",
		exercises: "Replace",
		config:    informer,
		ops:       []op{replace("3", pod("a", 1), pod("b", 2)), pop, pop, replace("5", pod("a", 4)), pop, pop},
		want:      []string{"pop: Replaced a@1 (initial)", "pop: Replaced b@2 (initial; synced before process)", "pop: Replaced a@4", "pop: Deleted tombstone(ns/b, b@2)"},
	}, {
		name:      "Replace emits a tombstone for an object only in the queue, holding its last queued state",
		exercises: "Replace",
		config:    informer,
		ops:       []op{add(pod("a", 1)), update(pod("a", 2)), replace("3"), pop},
		want:      []string{"synced", "pop: Added a@1, Updated a@2, Deleted tombstone(ns/a, a@2)"},
	}, {
		name:      "Replace puts a queued tombstone's object, not the tombstone, in the new tombstone",
		exercises: "Replace (isDeletionDup merges the two tombstones)",
		config:    informer,
		// Two relists before the consumer pops: the first queues a
		// tombstone for a, the second finds it queued.
		ops:  []op{add(pod("a", 1)), pop, replace("3"), replace("4"), pop},
		want: []string{"synced", "pop: Added a@1", "pop: Deleted tombstone(ns/a, a@1)"},
	}, {
		name:      "Replace emits one tombstone for an object both queued and known, holding its queued state",
		exercises: "Replace",
		config:    informer,
		ops:       []op{add(pod("a", 1)), pop, update(pod("a", 2)), replace("3"), pop},
		want:      []string{"synced", "pop: Added a@1", "pop: Updated a@2, Deleted tombstone(ns/a, a@2)"},
	}, {
		name:      "Replace tombstones a known key the store says is gone with no object, and reports nothing",
		exercises: "Replace",
		config:    informer,
		ops:       []op{knownSet(pod("a", 1)), ghost(ghostGone), replace("3", pod("a", 2)), pop, pop},
		want:      []string{"pop: Replaced a@2 (initial)", "pop: Deleted tombstone(ns/ghost, nil) (initial; synced before process)"},
	}, {
		name:      "Replace gives a known key the store says is gone no object, even when GetByKey hands one back",
		exercises: "Replace",
		config:    informer,
		ops:       []op{add(pod("a", 1)), pop, ghost(ghostStale), replace("3", pod("a", 2)), pop, pop},
		want:      []string{"synced", "pop: Added a@1", "pop: Replaced a@2", "pop: Deleted tombstone(ns/ghost, nil)"},
	}, {
		name:      "Replace tombstones a known key the store fails to read with no object, and reports the error",
		exercises: "Replace",
		config:    informer,
		ops:       []op{knownSet(pod("a", 1)), ghost(ghostBroken), replace("3"), pop, pop},
		want:      []string{"reported 1", "pop: Deleted tombstone(ns/a, a@1) (initial)", "pop: Deleted tombstone(ns/ghost, nil) (initial; synced before process)"},
	}, {
		name:      "the first list counts its tombstones too",
		exercises: "Replace (Pop counts)",
		config:    informer,
		ops:       []op{knownSet(pod("a", 1)), replace("2", pod("b", 2)), pop, pop},
		want:      []string{"pop: Replaced b@2 (initial)", "pop: Deleted tombstone(ns/a, a@1) (initial; synced before process)"},
	}, {
		name:      "without KnownObjects a relist cannot see that a popped object is gone, and the watch's deletion is dropped",
		exercises: "Replace",
		config:    fifoConfig{emitReplaced: true, noKnownObjects: true},
		ops:       []op{add(pod("a", 1)), pop, replace("3"), pop, del(pod("a", 4)), pop},
		want:      []string{"synced", "pop: Added a@1"},
	}, {
		name:      "the transformer runs once per object: not on resyncs, not on tombstones",
		exercises: "Replace",
		config:    fifoConfig{emitReplaced: true, transformer: true},
		ops:       []op{add(pod("a", 1)), pop, resync, pop, replace("3"), pop},
		want:      []string{"synced", "pop: Added a@1+t", "pop: Sync a@1+t", "pop: Deleted tombstone(ns/a, a@1+t)"},
	}, {
		// The rules of the code around the lab's functions: they pass
		// as soon as Pop works.
		name:      "Delete of an object neither queued nor known is dropped",
		exercises: "Pop",
		config:    informer,
		ops:       []op{del(pod("a", 1)), pop, add(pod("b", 2)), pop, del(pod("b", 3)), pop},
		want:      []string{"synced", "pop: Added b@2", "pop: Deleted b@3"},
	}, {
		name:      "Resync queues a Sync for each known object whose key is not queued",
		exercises: "Pop",
		config:    informer,
		ops:       []op{add(pod("a", 1)), add(pod("b", 2)), pop, pop, update(pod("a", 3)), resync, pop, pop},
		want:      []string{"synced", "pop: Added a@1", "pop: Added b@2", "pop: Updated a@3", "pop: Sync b@2"},
	}, {
		name:      "Resync skips a known key the store cannot give back, and reports only a failed lookup",
		exercises: "Pop",
		config:    informer,
		ops:       []op{add(pod("a", 1)), pop, ghost(ghostGone), resync, ghost(ghostStale), resync, ghost(ghostBroken), resync, pop, pop},
		want:      []string{"synced", "pop: Added a@1", "reported 1", "pop: Sync a@1"},
	}, {
		name:      "a transformer error is returned and nothing is queued",
		exercises: "Pop",
		config:    fifoConfig{emitReplaced: true, transformer: true},
		ops:       []op{add(pod("e", 1)), pop},
		want:      []string{"error: transformer refuses pod e", "synced"},
	}, {
		name:      "an ExplicitKey stands in for an object it names",
		exercises: "Pop",
		config:    informer,
		ops:       []op{add(pod("a", 1)), pop, del(key("a")), pop},
		want:      []string{"synced", "pop: Added a@1", "pop: Deleted key(ns/a)"},
	}, {
		name:   "an object without metadata gets a KeyError",
		config: informer,
		ops:    []op{add(bad("x")), del(bad("x"))},
		want:   []string{"error: " + keyErrorNoMeta, "synced", "error: " + keyErrorNoMeta},
	}}, clientGoDeltaFIFO, oursDeltaFIFO)
}

func TestRealFIFORules(t *testing.T) {
	informer := fifoConfig{atomic: true, bookmark: true, unlock: true} // client-go v0.37's informer
	nonAtomic := fifoConfig{}                                          // KnownObjects on
	checkRules(t, []ruleCase{{
		name:   "every event is its own item, in arrival order",
		config: informer,
		ops:    []op{add(pod("a", 1)), add(pod("b", 2)), update(pod("a", 3)), del(pod("b", 4)), pop, pop, pop, pop},
		want:   []string{"synced", "pop: Added a@1", "pop: Added b@2", "pop: Updated a@3", "pop: Deleted b@4"},
	}, {
		name:   "Delete is queued even for an object nobody knows",
		config: informer,
		ops:    []op{del(pod("a", 1)), pop},
		want:   []string{"synced", "pop: Deleted a@1"},
	}, {
		name:   "an atomic Replace is one ReplacedAll item with the transformed list; it is the whole first list",
		config: fifoConfig{atomic: true, transformer: true},
		ops:    []op{replace("3", pod("a", 1), pod("b", 2)), add(pod("c", 4)), pop, pop},
		want:   []string{"pop: ReplacedAll all@3[a@1+t b@2+t] (initial)", "synced", "pop: Added c@4+t"},
	}, {
		name:   "an atomic Replace does not look for deletions: the consumer will",
		config: informer,
		ops:    []op{add(pod("a", 1)), pop, replace("3"), pop},
		want:   []string{"synced", "pop: Added a@1", "pop: ReplacedAll all@3[]"},
	}, {
		name:   "an atomic Resync is one SyncAll item, in line",
		config: informer,
		ops:    []op{add(pod("a", 1)), resync, add(pod("b", 2)), pop, pop, pop},
		want:   []string{"synced", "pop: Added a@1", "pop: SyncAll syncall", "pop: Added b@2"},
	}, {
		name:   "Bookmark deltas are queued in line with EmitDeltaTypeBookmark",
		config: informer,
		ops:    []op{add(pod("a", 1)), bookmark("5"), add(pod("b", 6)), pop, pop, pop},
		want:   []string{"synced", "pop: Added a@1", "pop: Bookmark bookmark@5", "pop: Added b@6"},
	}, {
		name:   "Bookmark does nothing without EmitDeltaTypeBookmark",
		config: fifoConfig{atomic: true},
		ops:    []op{bookmark("5"), add(pod("b", 6)), pop, pop},
		want:   []string{"synced", "pop: Added b@6"},
	}, {
		name:   "a Bookmark before the first list is not a write, and HasSynced waits for it too",
		config: informer,
		ops:    []op{bookmark("1"), replace("2", pod("a", 1)), pop, pop},
		want:   []string{"pop: Bookmark bookmark@1 (initial)", "pop: ReplacedAll all@2[a@1] (initial)", "synced"},
	}, {
		name:   "PopBatch groups distinct objects and stops before a second event of one",
		config: informer,
		ops:    []op{add(pod("a", 1)), add(pod("b", 2)), update(pod("a", 3)), add(pod("c", 4)), popBatch, popBatch},
		want:   []string{"synced", "pop: batch[Added a@1, Added b@2]", "pop: batch[Updated a@3, Added c@4]"},
	}, {
		name:   "PopBatch hands atomic items and bookmarks alone, through processSingle",
		config: informer,
		ops:    []op{add(pod("a", 1)), resync, bookmark("3"), add(pod("b", 4)), add(pod("c", 5)), popBatch, popBatch, popBatch, popBatch},
		want:   []string{"synced", "pop: Added a@1", "pop: SyncAll syncall", "pop: Bookmark bookmark@3", "pop: batch[Added b@4, Added c@5]"},
	}, {
		name:   "PopBatch never mixes the first list with later events",
		config: nonAtomic,
		ops:    []op{replace("3", pod("a", 1), pod("b", 2)), add(pod("c", 4)), popBatch, popBatch},
		want:   []string{"pop: batch[Replaced a@1, Replaced b@2] (initial)", "synced", "pop: Added c@4"},
	}, {
		name:   "HasSynced turns true only after the last initial item was processed",
		config: informer,
		ops:    []op{replace("1", pod("a", 1)), pop},
		want:   []string{"pop: ReplacedAll all@1[a@1] (initial)", "synced"},
	}, {
		name:   "without AtomicEvents Replace queues tombstones (queued keys, then known) before the Replaced items",
		config: nonAtomic,
		ops:    []op{add(pod("a", 1)), add(pod("b", 2)), pop, pop, add(pod("c", 3)), replace("5", pod("b", 4)), pop, pop, pop, pop},
		want: []string{"synced", "pop: Added a@1", "pop: Added b@2", "pop: Added c@3",
			"pop: Deleted tombstone(ns/c, c@3)", "pop: Deleted tombstone(ns/a, a@1)", "pop: Replaced b@4"},
	}, {
		name:   "without AtomicEvents no tombstone follows a queued deletion",
		config: nonAtomic,
		ops:    []op{add(pod("a", 1)), pop, del(pod("a", 2)), replace("3"), pop, pop},
		want:   []string{"synced", "pop: Added a@1", "pop: Deleted a@2"},
	}, {
		name:   "without AtomicEvents Resync queues a Sync for each known key not queued",
		config: nonAtomic,
		ops:    []op{add(pod("a", 1)), add(pod("b", 2)), pop, pop, update(pod("a", 3)), resync, pop, pop},
		want:   []string{"synced", "pop: Added a@1", "pop: Added b@2", "pop: Updated a@3", "pop: Sync b@2"},
	}, {
		name:   "a closed queue still takes writes and hands them out; Pop fails only when it is empty",
		config: informer,
		ops:    []op{closeQ, add(pod("a", 1)), pop, pop, popBatch},
		want:   []string{"synced", "pop: Added a@1", "error: DeltaFIFO: manipulating with closed queue", "error: DeltaFIFO: manipulating with closed queue"},
	}, {
		name:   "an object without metadata gets a KeyError",
		config: informer,
		ops:    []op{add(bad("x"))},
		want:   []string{"error: " + keyErrorNoMeta, "synced"},
	}, {
		name:   "a panic in process leaves Pop, even with the lock released; the queue still works",
		config: informer,
		ops:    []op{add(pod("a", 1)), add(pod("b", 2)), {kind: opPop, panics: true}, pop},
		want:   []string{"synced", "pop: Added a@1", "panic: process panicked", "pop: Added b@2"},
	}}, clientGoRealFIFO, oursRealFIFO)
}
