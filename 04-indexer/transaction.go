// Mirrors k8s.io/client-go v0.37.2 tools/cache/store.go (TransactionType,
// Transaction, TransactionStore, TransactionError, cache.Transaction) and
// tools/cache/thread_safe_store.go (ThreadSafeStoreWithTransaction,
// ThreadSafeStoreTransaction, threadSafeMap.Transaction).
//
// Why transactions exist: with the InOrderInformersBatchProcess feature (on
// by default since 1.35) the informer pops a batch of events from its RealFIFO
// and applies them to the Indexer in one call (controller.go,
// processDeltasInBatch), taking the write lock once per batch instead of once
// per object, so readers and the writer contend less.

package indexer

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
)

// TransactionType says what one Transaction does.
type TransactionType string

// The three writes a transaction can hold.
const (
	TransactionTypeAdd    TransactionType = "Add"
	TransactionTypeUpdate TransactionType = "Update"
	TransactionTypeDelete TransactionType = "Delete"
)

// Transaction is one write in a batch: an object and what to do with it.
type Transaction struct {
	Object interface{}
	Type   TransactionType
}

// TransactionStore is a Store that can apply a batch of writes under one
// lock acquisition.
type TransactionStore interface {
	// Transaction applies txns in order. Writes that fail are skipped and
	// reported; the others are applied.
	Transaction(txns ...Transaction) *TransactionError
}

var _ error = &TransactionError{}

// TransactionError reports which writes of a batch were applied
// (SuccessfulIndices, positions in the batch) and why the others were not.
type TransactionError struct {
	SuccessfulIndices []int
	TotalTransactions int
	Errors            []error
}

func (t *TransactionError) Error() string {
	return fmt.Sprintf("failed to execute (%d/%d) transactions failed due to: %v",
		t.TotalTransactions-len(t.SuccessfulIndices), t.TotalTransactions, t.Errors)
}

// ThreadSafeStoreWithTransaction is a ThreadSafeStore that can apply a batch
// of keyed writes under one lock acquisition.
type ThreadSafeStoreWithTransaction interface {
	ThreadSafeStore
	// Transaction applies txns in order and returns nil, or one error per
	// transaction (nil where it was applied). client-go's returns nothing,
	// because its writes cannot fail without a panic.
	Transaction(txns ...ThreadSafeStoreTransaction) []error
}

// ThreadSafeStoreTransaction is a Transaction with its key already made.
type ThreadSafeStoreTransaction struct {
	Transaction
	Key string
}

// Transaction keys every object, skipping (and reporting) those without a
// key, then applies the rest in one ThreadSafeStore transaction.
func (c *cache) Transaction(txns ...Transaction) *TransactionError {
	keyed := make([]ThreadSafeStoreTransaction, 0, len(txns))
	positions := make([]int, 0, len(txns)) // keyed[i] is txns[positions[i]]
	errs := make([]error, len(txns))
	failed := false
	for i, txn := range txns {
		key, err := c.key(txn.Object)
		if err != nil {
			errs[i], failed = err, true
			continue
		}
		keyed = append(keyed, ThreadSafeStoreTransaction{txn, key})
		positions = append(positions, i)
	}
	for i, err := range c.cacheStorage.Transaction(keyed...) {
		if err != nil {
			errs[positions[i]], failed = err, true
		}
	}
	if !failed {
		return nil
	}
	txnErr := &TransactionError{SuccessfulIndices: []int{}, TotalTransactions: len(txns)}
	for i, err := range errs {
		if err != nil {
			txnErr.Errors = append(txnErr.Errors, err)
		} else {
			txnErr.SuccessfulIndices = append(txnErr.SuccessfulIndices, i)
		}
	}
	return txnErr
}

// Transaction applies txns under one write lock. The store's resourceVersion
// becomes that of the last applied transaction's object: the batch arrives in
// order, so the last one is the newest.
func (c *threadSafeMap) Transaction(txns ...ThreadSafeStoreTransaction) []error {
	if len(txns) == 0 {
		return nil
	}
	c.lock.Lock()
	defer c.lock.Unlock()
	var errs []error
	last := -1
	for i, txn := range txns {
		var err error
		switch txn.Type {
		case TransactionTypeAdd, TransactionTypeUpdate:
			err = c.updateLocked(txn.Key, txn.Object)
		case TransactionTypeDelete:
			err = c.deleteLocked(txn.Key)
		default:
			// client-go ignores an unknown type; we say so instead.
			err = fmt.Errorf("unknown transaction type %q for key %q", txn.Type, txn.Key)
		}
		if err != nil {
			if errs == nil {
				errs = make([]error, len(txns))
			}
			errs[i] = err
			continue
		}
		last = i
	}
	if last >= 0 {
		if m, err := meta.Accessor(txns[last].Object); err == nil {
			c.rv = m.GetResourceVersion()
		}
	}
	return errs
}
