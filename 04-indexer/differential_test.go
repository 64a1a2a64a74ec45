package indexer_test

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"k8s.io/client-go/tools/cache"

	indexer "informer-from-scratch/04-indexer"
)

// run drives ours and client-go's indexer with the same operations and
// compares everything observable after every step.
//
// Where client-go panics (an index function failed), ours must return the
// same failure as an error and change nothing. client-go's indexer is then
// half updated, so it is rebuilt by replaying every earlier operation on a
// fresh one: "client-go as it was before the failed write" is what ours must
// equal.
func run(t *testing.T, c chooser, steps int) {
	t.Helper()
	ours, theirs := newOurs(initialIndexFuncs...), newTheirs(initialIndexFuncs...)
	var applied []op // the operations client-go took without panicking
	g := &generator{c: c}
	for step := range steps {
		o := g.op()
		if c.exhausted() {
			return
		}
		context := fmt.Sprintf("step %d, %s", step, o)
		gotErr := applyOurs(ours, o)
		wantErr, panicked := applyTheirs(theirs, o)
		switch {
		case panicked && o.kind == opTransaction:
			// client-go panicked on one write of the batch; ours skips
			// and reports each failing write and applies the others.
			var kept op
			theirs, kept, wantErr = transactionWithoutPanics(t, applied, o)
			applied = append(applied, kept)
			if wantErr != gotErr {
				t.Fatalf("%s: client-go, without the writes it panics on, returned\n%s\nours returned\n%s", context, wantErr, gotErr)
			}
		case panicked:
			if !sameIndexFailure(o, ours, wantErr, gotErr) {
				t.Fatalf("%s: client-go panicked with %q; ours returned %q, want the same failure as an error", context, wantErr, gotErr)
			}
			theirs = replay(t, applied)
			// What follows compares ours with client-go before the write.
			context += fmt.Sprintf(", a write that fails (%s): ours must leave the store as it was", gotErr)
		default:
			applied = append(applied, o)
			if wantErr != gotErr {
				t.Fatalf("%s: client-go returned %q, ours %q", context, wantErr, gotErr)
			}
		}
		compareStates(t, ours, theirs, context)
	}
}

// transactionWithoutPanics finds which writes of o make client-go panic (by
// trying each on a replayed indexer), applies the batch without them to a
// fresh client-go indexer, and returns that indexer, the batch it applied,
// and the TransactionError ours should return: client-go's for the reduced
// batch, with positions mapped back and the panics added as errors.
func transactionWithoutPanics(t *testing.T, applied []op, o op) (cache.Indexer, op, string) {
	t.Helper()
	kept := op{kind: opTransaction}
	var keptPos []int
	panics := map[int]error{}
	theirs := replay(t, applied)
	for i, tx := range o.txns {
		if msg, panicked := applyTheirs(theirs, op{kind: opTransaction, txns: []txn{tx}}); panicked {
			panics[i] = errors.New(msg)
			theirs = replay(t, append(slices.Clone(applied), kept))
			continue
		}
		kept.txns = append(kept.txns, tx)
		keptPos = append(keptPos, i)
	}

	theirs = replay(t, applied)
	txns := make([]cache.Transaction, len(kept.txns))
	for i, tx := range kept.txns {
		txns[i] = cache.Transaction{Object: tx.obj, Type: cache.TransactionType(tx.typ)}
	}
	reduced := theirs.(cache.TransactionStore).Transaction(txns...)
	// Errors by position in the original batch.
	errs := maps.Clone(panics)
	succeeded := slices.Clone(keptPos)
	if reduced != nil {
		succeeded = nil
		for _, i := range reduced.SuccessfulIndices {
			succeeded = append(succeeded, keptPos[i])
		}
		keyErrs := reduced.Errors
		for _, pos := range keptPos {
			if !slices.Contains(succeeded, pos) {
				errs[pos], keyErrs = keyErrs[0], keyErrs[1:]
			}
		}
	}
	want := &cache.TransactionError{SuccessfulIndices: []int{}, TotalTransactions: len(o.txns)}
	want.SuccessfulIndices = append(want.SuccessfulIndices, succeeded...)
	for _, pos := range slices.Sorted(maps.Keys(errs)) {
		want.Errors = append(want.Errors, errs[pos])
	}
	return theirs, kept, describeTxnErr(want.SuccessfulIndices, want.TotalTransactions, want.Errors, want.Error())
}

func replay(t *testing.T, ops []op) cache.Indexer {
	t.Helper()
	theirs := newTheirs(initialIndexFuncs...)
	for _, o := range ops {
		if msg, panicked := applyTheirs(theirs, o); panicked {
			t.Fatalf("replaying %s on client-go panicked: %s", o, msg)
		}
	}
	return theirs
}

func TestIndexerMatchesClientGoOnRandomOperations(t *testing.T) {
	for seed := range uint64(12) {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			run(t, randChooser{rand.New(rand.NewPCG(seed, 0x04))}, 250)
		})
	}
}

// TestUpdateMovesTheKeyBetweenBucketsLikeClientGo is the random operations
// above, cut down to one pod and one index: added with app=web, relabelled
// app=db, deleted. The update must take the key out of the "web" bucket and
// put it in the "db" one; the workshop guide's module 4 breaks that, and this
// is the test whose first difference is the one it describes (the random
// operations meet a delete first, which the same break spoils too).
func TestUpdateMovesTheKeyBetweenBucketsLikeClientGo(t *testing.T) {
	ours, theirs := newOurs(byApp), newTheirs(byApp)
	web := pod("shop", "web-1", "node-1", map[string]string{"app": "web"})
	web.ResourceVersion = "1"
	db := pod("shop", "web-1", "node-1", map[string]string{"app": "db"})
	db.ResourceVersion = "2"
	for _, o := range []op{{kind: opAdd, obj: web}, {kind: opUpdate, obj: db}, {kind: opDelete, obj: db}} {
		gotErr := applyOurs(ours, o)
		wantErr, panicked := applyTheirs(theirs, o)
		if panicked || gotErr != wantErr {
			t.Fatalf("%s: client-go returned %q (panicked: %v), ours %q", o, wantErr, panicked, gotErr)
		}
		compareStates(t, ours, theirs, "after "+o.String())
	}
}

// FuzzIndexerMatchesClientGo lets the fuzzer choose the operations: every
// byte is one choice. make test runs only the seed corpus below; to explore:
//
//	go test -run '^$' -fuzz FuzzIndexerMatchesClientGo -fuzzminimizetime 3s ./04-indexer/
//
// (An input runs up to 200 steps, so minimizing a new one with the default
// 60s budget looks like a stall: "execs: N (0/sec)".)
func FuzzIndexerMatchesClientGo(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte("add update delete replace addindexers transaction bookmark"))
	f.Add([]byte{14, 2, 2, 14, 0, 12, 5, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	for seed := range uint64(4) {
		r := rand.New(rand.NewPCG(seed, 0xf))
		data := make([]byte, 400)
		for i := range data {
			data[i] = byte(r.UintN(256))
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		run(t, &byteChooser{data: data}, 200)
	})
}

// Replace must rebuild every index from scratch: a stale bucket from before
// the Replace would make ByIndex answer with objects that are gone.
func TestReplaceRebuildsIndicesLikeClientGo(t *testing.T) {
	g := &generator{c: randChooser{rand.New(rand.NewPCG(7, 7))}}
	ours, theirs := newOurs(initialIndexFuncs...), newTheirs(initialIndexFuncs...)
	for range 40 {
		pod := g.pod(false)
		if err := ours.Add(pod); err != nil {
			t.Fatal(err)
		}
		if err := theirs.Add(pod); err != nil {
			t.Fatal(err)
		}
	}
	var list []interface{}
	for range 6 {
		list = append(list, g.pod(false))
	}
	if err := ours.Replace(append([]interface{}{}, list...), "999"); err != nil {
		t.Fatal(err)
	}
	if err := theirs.Replace(append([]interface{}{}, list...), "999"); err != nil {
		t.Fatal(err)
	}
	compareStates(t, ours, theirs, "after Replace")
	var _ indexer.Indexer = ours
}
