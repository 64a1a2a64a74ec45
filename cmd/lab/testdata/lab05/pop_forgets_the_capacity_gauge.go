//go:build ignore

// A plausible wrong answer to lab 05: the ring grows and nothing is lost,
// but the capacity gauge is never updated after a write, so BufferCapacity
// (what the demo prints, and what shows a burst's lasting cost) still says
// 1,024 after the ring grew to 131,072 slots. The length gauge is right.

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
			if ok {
				p.pendingNotificationsLength.Add(-1)
			} else {
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
			}
		}
	}
}
