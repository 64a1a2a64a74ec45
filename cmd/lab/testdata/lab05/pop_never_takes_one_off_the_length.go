//go:build ignore

// A plausible wrong answer to lab 05: pop adds one to the length gauge for
// each notification it parks in the ring, but never takes one off when it
// reads one back. Every notification is delivered, in order, and the gauge
// is right while the backlog grows; once the handler has caught up,
// PendingNotifications (the demo's depth, client-go's switch for tracing
// slow handlers) still says 99,998 for an empty ring.

package processor

import utilruntime "k8s.io/apimachinery/pkg/util/runtime"

func (p *ProcessorListener) pop() {
	defer utilruntime.HandleCrash()
	defer close(p.nextCh) // tells run to stop
	defer close(p.done)   // tells watchSynced to stop

	// nextCh is nil (a select case that never fires) while there is nothing
	// to offer; notification is the one in hand.
	var nextCh chan<- Notification
	var notification Notification
	for {
		addCh := p.addCh
		if p.unbuffered && notification != nil {
			addCh = nil // WithoutBuffer: no room for a second one
		}
		select {
		case nextCh <- notification:
			// run took it: take the next one from the ring, if any.
			var ok bool
			notification, ok = p.pendingNotifications.ReadOne()
			if !ok {
				nextCh = nil
			}
		case notificationToAdd, ok := <-addCh:
			if !ok {
				return
			}
			if notification == nil {
				// Nothing in hand, so the ring is empty too: skip it.
				notification = notificationToAdd
				nextCh = p.nextCh
			} else {
				p.pendingNotifications.WriteOne(notificationToAdd)
				p.pendingNotificationsLength.Add(1)
				p.pendingNotificationsCap.Store(int64(p.pendingNotifications.Cap()))
			}
		}
	}
}
