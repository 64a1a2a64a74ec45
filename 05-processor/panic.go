// Mirrors k8s.io/client-go v0.37.2 tools/cache/shared_informer.go: processorListener.run
// (the per-notification call and its utilruntime.HandleCrashWithLogger).

package processor

import (
	"fmt"
	"runtime/debug"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// HandlerPanic describes a panic recovered from an event handler when
// ProcessorOptions.OnHandlerPanic is set.
type HandlerPanic struct {
	// Handler names the handler (its type, or its functions' names).
	Handler string
	// Notification is what the handler was given when it panicked; it is
	// skipped, never retried.
	Notification Notification
	// Value is what the handler passed to panic.
	Value any
	// Stack is the panicking goroutine's stack.
	Stack []byte
}

// Error makes a HandlerPanic loggable as an error.
func (h HandlerPanic) Error() string {
	return fmt.Sprintf("event handler %s panicked on %T: %v", h.Handler, h.Notification, h.Value)
}

// LogAndContinue is an OnHandlerPanic that logs the panic and its stack with
// utilruntime.HandleError and lets the listener go on with the next
// notification: the "log and keep going" mode users ask client-go for.
func LogAndContinue(h HandlerPanic) {
	utilruntime.HandleError(fmt.Errorf("%w\n%s", h, h.Stack))
}

// deliver calls the handler for one notification. It reports crashed when
// the handler panicked and utilruntime.HandleCrash logged and swallowed the
// panic (only when utilruntime.ReallyCrash is false); run then pauses. A
// handler that returns, or whose panic onPanic turned into a report, has not
// crashed.
//
// By default this is client-go's behaviour exactly: utilruntime.HandleCrash
// logs "Observed a panic" with the stack and panics again, and since nothing
// further up the listener's goroutine recovers, the whole process exits. A
// handler's bug is treated as a bug in the program, not as bad data.
func (p *ProcessorListener) deliver(notification Notification) (crashed bool) {
	// Set until the handler returns: a panic that HandleCrash swallows
	// leaves deliver with crashed still true.
	crashed = true
	if p.onPanic != nil {
		defer p.recoverPanic(notification, &crashed)
	} else {
		defer utilruntime.HandleCrash()
	}
	switch n := notification.(type) {
	case UpdateNotification:
		p.handler.OnUpdate(n.OldObj, n.NewObj)
	case AddNotification:
		p.handler.OnAdd(n.NewObj, n.IsInInitialList)
		if n.IsInInitialList {
			p.syncTracker.Finished()
		}
	case DeleteNotification:
		p.handler.OnDelete(n.OldObj)
	default:
		// Only a nil Notification can get here: the interface is sealed.
		utilruntime.HandleError(fmt.Errorf("processor: unrecognized notification %T for handler %s", notification, p.handlerName))
	}
	return false
}

// recoverPanic is the "log and keep going" path (a difference from client-go,
// which offers it only through the process-wide utilruntime.ReallyCrash):
// report the panic, skip the notification, and go on at once. An initial-list
// add still counts as finished, so the handler's HasSynced does not stay false
// for ever (kubernetes/kubernetes#129024).
func (p *ProcessorListener) recoverPanic(notification Notification, crashed *bool) {
	r := recover()
	if r == nil {
		return
	}
	if a, ok := notification.(AddNotification); ok && a.IsInInitialList {
		p.syncTracker.Finished()
	}
	p.onPanic(HandlerPanic{Handler: p.handlerName, Notification: notification, Value: r, Stack: debug.Stack()})
	*crashed = false
}
