// Mirrors k8s.io/client-go v0.37.2 tools/cache/delta_fifo.go and
// tools/cache/the_real_fifo.go: the populated / initialPopulationCount /
// synced fields and checkSynced_locked, which both queues repeat.

package deltafifo

// initialSync is the HasSynced rule, shared by both queues (client-go repeats
// it in each). "Synced" means: the first list has been delivered to the
// consumer. So the queue counts the items the first Replace queued and
// counts them down as they are popped. If an Add, Update or Delete comes
// before any Replace there is no first list to wait for, and the queue is
// synced at once. The caller holds the queue's lock.
type initialSync struct {
	// populated is true once the first Replace, Add, Update or Delete ran.
	// (Resync and Bookmark do not count.)
	populated bool
	// initialPopulationCount is how many items of the first Replace are
	// still queued.
	initialPopulationCount int
	// synced is closed, once, when the first list has been delivered.
	synced       chan struct{}
	syncedClosed bool
}

func newInitialSync() initialSync {
	return initialSync{synced: make(chan struct{})}
}

// sawEvent records an Add, Update or Delete call (a DeltaFIFO's Delete of an
// unknown object included, which queues nothing): the queue is populated
// without a first list, as client-go's Add, Update and Delete set populated.
func (s *initialSync) sawEvent() {
	s.populated = true
	s.check()
}

// replaced records a Replace that queued n items; only the first one counts.
func (s *initialSync) replaced(n int) {
	if s.populated {
		return
	}
	s.populated = true
	s.initialPopulationCount = n
	s.check()
}

// popped records that n items left the queue.
func (s *initialSync) popped(n int) {
	if s.initialPopulationCount > 0 {
		s.initialPopulationCount -= n
		s.check()
	}
}

func (s *initialSync) check() {
	if s.populated && s.initialPopulationCount == 0 && !s.syncedClosed {
		s.syncedClosed = true
		close(s.synced)
	}
}

func (s *initialSync) hasSynced() bool { return s.syncedClosed }
