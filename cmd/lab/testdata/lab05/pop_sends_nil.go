//go:build ignore

// A plausible wrong answer to lab 05: after run takes the notification in
// hand, pop reads the next one from the ring but never switches the send
// off when the ring is empty. It then offers run the zero Notification, nil,
// over and over: the handler is not called for it, but run logs
// "unrecognized notification" in a loop and the real notifications queue
// behind the nils.

package processor

import utilruntime "k8s.io/apimachinery/pkg/util/runtime"

func (p *ProcessorListener) pop() {
	defer utilruntime.HandleCrash()
	defer close(p.nextCh)
	defer close(p.done)

	var nextCh chan<- Notification
	var notification Notification
	for {
		addCh := p.addCh
		if p.unbuffered && notification != nil {
			addCh = nil
		}
		select {
		case nextCh <- notification:
			var ok bool
			if notification, ok = p.pendingNotifications.ReadOne(); ok {
				p.pendingNotificationsLength.Add(-1)
			}
		case notificationToAdd, ok := <-addCh:
			if !ok {
				return
			}
			if nextCh == nil {
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
