// Mirrors k8s.io/client-go v0.37.2 tools/cache/shared_informer.go: addNotification,
// updateNotification, deleteNotification.

package processor

// Notification is one event on its way to a handler: an AddNotification, an
// UpdateNotification or a DeleteNotification. client-go passes them around as
// interface{} and logs "unrecognized notification" for anything else; ours is
// a closed set, so a wrong type is a compile error instead.
type Notification interface {
	// isNotification seals the interface: only this package's three types
	// implement it.
	isNotification()
}

// AddNotification becomes a call to OnAdd(NewObj, IsInInitialList).
type AddNotification struct {
	NewObj any
	// IsInInitialList marks an object from the initial list (or from the
	// synthetic list a late handler gets). The listener counts these to
	// compute its registration's HasSynced.
	IsInInitialList bool
}

// UpdateNotification becomes a call to OnUpdate(OldObj, NewObj).
type UpdateNotification struct {
	OldObj any
	NewObj any
}

// DeleteNotification becomes a call to OnDelete(OldObj).
type DeleteNotification struct {
	OldObj any
}

func (AddNotification) isNotification()    {}
func (UpdateNotification) isNotification() {}
func (DeleteNotification) isNotification() {}
