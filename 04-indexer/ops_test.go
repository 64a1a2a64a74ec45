package indexer_test

// The operations of the differential tests, described once and applied to
// either side.

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"

	deltafifo "informer-from-scratch/03-deltafifo"
	indexer "informer-from-scratch/04-indexer"
)

type opKind string

const (
	opAdd             opKind = "Add"
	opUpdate          opKind = "Update"
	opDelete          opKind = "Delete"
	opDeleteKey       opKind = "Delete(ExplicitKey)"
	opDeleteTombstone opKind = "Delete(DeletedFinalStateUnknown)"
	opReplace         opKind = "Replace"
	opBookmark        opKind = "Bookmark"
	opAddIndexers     opKind = "AddIndexers"
	opTransaction     opKind = "Transaction"
	opResync          opKind = "Resync"
)

type txn struct {
	typ string // "Add", "Update", "Delete"
	obj interface{}
}

// op is one call on the store, described independently of either side.
type op struct {
	kind     opKind
	obj      interface{}   // Add, Update, Delete; the tombstone's object
	key      string        // ExplicitKey and tombstone deletes
	list     []interface{} // Replace
	rv       string        // Replace, Bookmark
	indexers []namedIndexFunc
	txns     []txn
}

func (o op) String() string {
	switch o.kind {
	case opAdd, opUpdate, opDelete:
		return fmt.Sprintf("%s(%s)", o.kind, describe(o.obj))
	case opDeleteKey, opDeleteTombstone:
		return fmt.Sprintf("%s %q", o.kind, o.key)
	case opReplace:
		var parts []string
		for _, obj := range o.list {
			parts = append(parts, describe(obj))
		}
		return fmt.Sprintf("Replace([%s], %q)", strings.Join(parts, ", "), o.rv)
	case opBookmark:
		return fmt.Sprintf("Bookmark(%q)", o.rv)
	case opAddIndexers:
		var names []string
		for _, f := range o.indexers {
			names = append(names, f.name)
		}
		return fmt.Sprintf("AddIndexers(%v)", names)
	case opTransaction:
		var parts []string
		for _, t := range o.txns {
			parts = append(parts, t.typ+" "+describe(t.obj))
		}
		return fmt.Sprintf("Transaction(%s)", strings.Join(parts, "; "))
	}
	return string(o.kind)
}

func describe(obj interface{}) string {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return fmt.Sprintf("%#v", obj)
	}
	return fmt.Sprintf("%s/%s rv=%s node=%q labels=%v users=%q", pod.Namespace, pod.Name,
		pod.ResourceVersion, pod.Spec.NodeName, pod.Labels, pod.Annotations["users"])
}

// applyOurs runs o on ours and describes the result ("" for success).
func applyOurs(s indexer.Indexer, o op) string {
	switch o.kind {
	case opAdd:
		return errString(s.Add(o.obj))
	case opUpdate:
		return errString(s.Update(o.obj))
	case opDelete:
		return errString(s.Delete(o.obj))
	case opDeleteKey:
		return errString(s.Delete(deltafifo.ExplicitKey(o.key)))
	case opDeleteTombstone:
		return errString(s.Delete(deltafifo.DeletedFinalStateUnknown{Key: o.key, Obj: o.obj}))
	case opReplace:
		return errString(s.Replace(slices.Clone(o.list), o.rv))
	case opBookmark:
		s.Bookmark(o.rv)
		return ""
	case opAddIndexers:
		return errString(s.AddIndexers(oursIndexers(o.indexers...)))
	case opTransaction:
		txns := make([]indexer.Transaction, len(o.txns))
		for i, t := range o.txns {
			txns[i] = indexer.Transaction{Object: t.obj, Type: indexer.TransactionType(t.typ)}
		}
		txnErr := s.(indexer.TransactionStore).Transaction(txns...)
		if txnErr == nil {
			return ""
		}
		return describeTxnErr(txnErr.SuccessfulIndices, txnErr.TotalTransactions, txnErr.Errors, txnErr.Error())
	case opResync:
		return errString(s.Resync())
	}
	panic("unknown op " + o.kind)
}

// applyTheirs runs o on client-go's indexer. panicked is set, with the
// panic's message, when client-go panicked.
func applyTheirs(s cache.Indexer, o op) (result string, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			result, panicked = fmt.Sprint(r), true
		}
	}()
	switch o.kind {
	case opAdd:
		return errString(s.Add(o.obj)), false
	case opUpdate:
		return errString(s.Update(o.obj)), false
	case opDelete:
		return errString(s.Delete(o.obj)), false
	case opDeleteKey:
		return errString(s.Delete(cache.ExplicitKey(o.key))), false
	case opDeleteTombstone:
		return errString(s.Delete(cache.DeletedFinalStateUnknown{Key: o.key, Obj: o.obj})), false
	case opReplace:
		return errString(s.Replace(slices.Clone(o.list), o.rv)), false
	case opBookmark:
		s.Bookmark(o.rv)
		return "", false
	case opAddIndexers:
		return errString(s.AddIndexers(theirsIndexers(o.indexers...))), false
	case opTransaction:
		txns := make([]cache.Transaction, len(o.txns))
		for i, t := range o.txns {
			txns[i] = cache.Transaction{Object: t.obj, Type: cache.TransactionType(t.typ)}
		}
		txnErr := s.(cache.TransactionStore).Transaction(txns...)
		if txnErr == nil {
			return "", false
		}
		return describeTxnErr(txnErr.SuccessfulIndices, txnErr.TotalTransactions, txnErr.Errors, txnErr.Error()), false
	case opResync:
		return errString(s.Resync()), false
	}
	panic("unknown op " + o.kind)
}

func describeTxnErr(ok []int, total int, errs []error, msg string) string {
	var s []string
	for _, err := range errs {
		s = append(s, err.Error())
	}
	return fmt.Sprintf("TransactionError{SuccessfulIndices: %#v, Total: %d, Errors: %q, Error(): %q}", ok, total, s, msg)
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

var indexFailure = regexp.MustCompile(`^unable to calculate an index entry for key "(.*)" on index "(.*)": (.*)$`)

// sameIndexFailure compares client-go's panic with our error. When the op
// indexes many objects (Replace, AddIndexers) and several fail, which one is
// met first depends on map order, on both sides. Then both must be index
// failures, and ours must name a key and index that really fail, with that
// cause: the object is looked up in the Replace list, or in our store (which
// a failed AddIndexers leaves unchanged).
func sameIndexFailure(o op, ours indexer.Indexer, theirsMsg, oursMsg string) bool {
	if theirsMsg == oursMsg {
		return true
	}
	if o.kind != opReplace && o.kind != opAddIndexers {
		return false
	}
	t, u := indexFailure.FindStringSubmatch(theirsMsg), indexFailure.FindStringSubmatch(oursMsg)
	if t == nil || u == nil {
		return false
	}
	key, indexName, cause := u[1], u[2], u[3]
	var obj interface{}
	if o.kind == opReplace {
		for _, item := range o.list {
			if k, err := cache.MetaNamespaceKeyFunc(item); err == nil && k == key {
				obj = item // the last one with this key wins, as in the store
			}
		}
	} else {
		obj, _, _ = ours.GetByKey(key)
	}
	for _, f := range append(slices.Clone(initialIndexFuncs), laterIndexFuncs...) {
		if f.name == indexName && obj != nil {
			_, err := f.theirs(obj)
			return err != nil && err.Error() == cause
		}
	}
	return false
}
