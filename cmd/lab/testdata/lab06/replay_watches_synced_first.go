//go:build ignore

// A plausible wrong answer to lab 06: the listener is told at once that its
// upstream has synced, before the replay, as for a handler added before
// Run. The informer has synced long ago, so the listener's HasSynced turns
// true as soon as it has handled what it was given so far: while the
// replay is still being added, a controller that waits for this handler
// may start with part of the cache.

package informer

func (s *sharedIndexInformer) joinLate(listener *processor.ProcessorListener, handler ResourceEventHandler, name string) (ResourceEventHandlerRegistration, error) {
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	handle, err := s.processor.AddLateListener(listener)
	if err != nil {
		return nil, err
	}
	s.processor.StartWatchSynced(listener)
	for _, item := range s.indexer.List() {
		s.seams.replay(handler, name, item)
		listener.Add(processor.AddNotification{NewObj: item, IsInInitialList: true})
	}
	return handle, nil
}
