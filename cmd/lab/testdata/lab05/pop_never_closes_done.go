//go:build ignore

// A plausible wrong answer to lab 05: pop closes nextCh for run when addCh
// is closed, but forgets done, the channel watchSynced waits on beside its
// source's HasSynced. Every notification is delivered; but a listener whose
// source never syncs keeps its watchSynced goroutine for ever after it is
// removed or stopped, and its processor's Run, which waits for all three
// goroutines of every listener, never returns.

package processor

import utilruntime "k8s.io/apimachinery/pkg/util/runtime"

func (p *ProcessorListener) pop() {
	defer utilruntime.HandleCrash()
	defer close(p.nextCh) // tells run to stop

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
				p.pendingNotificationsCap.Store(int64(p.pendingNotifications.Cap()))
			}
		}
	}
}
