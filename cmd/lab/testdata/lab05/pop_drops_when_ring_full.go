//go:build ignore

// A plausible wrong answer to lab 05, from a learner who took the chapter's
// warning about memory to heart: the ring is never allowed past its first
// capacity, and a notification that finds it full is dropped (and logged).
// Memory stays bounded; a handler that falls more than 1,024 notifications
// behind silently misses changes, and its view of the world is wrong until
// the next relist.

package processor

import (
	"fmt"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

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
			switch {
			case notification == nil:
				notification = notificationToAdd
				nextCh = p.nextCh
			case p.pendingNotifications.Len() == p.pendingNotifications.Cap():
				utilruntime.HandleError(fmt.Errorf("listener %s: buffer full, dropping a notification", p.handlerName))
			default:
				p.pendingNotifications.WriteOne(notificationToAdd)
				p.pendingNotificationsLength.Add(1)
			}
		}
	}
}
