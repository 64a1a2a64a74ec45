//go:build ignore

// A plausible wrong answer to lab 05, from "never drop one" taken too far:
// when addCh is closed, pop first hands run everything still in hand and in
// the ring, then returns. client-go's pop returns at once and drops the
// backlog, so a removed handler stops being called when its call in
// progress returns; this one is still called for every buffered
// notification after RemoveListener, and a stopped processor waits for a
// stuck handler's whole backlog.

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
				for notification != nil {
					p.nextCh <- notification
					notification, _ = p.pendingNotifications.ReadOne()
				}
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
