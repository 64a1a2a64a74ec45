package faultproxy

import (
	"fmt"
	"time"
)

// Kind names one fault.
type Kind string

// The faults. The first seven are the proxy's (Inject); Compact and Restart
// are the playground's, planned beside them and made by the caller.
const (
	CutWatch        Kind = "cut-watch"
	Gone            Kind = "410-gone"
	TooManyRequests Kind = "429-retry-after"
	ServerError     Kind = "500"
	Stall           Kind = "stall"
	Malformed       Kind = "malformed"
	WrongType       Kind = "wrong-type"
	Compact         Kind = "etcd-compaction"
	Restart         Kind = "apiserver-restart"
)

// ProxyKinds are the faults Inject makes, in the order the package doc lists
// them.
var ProxyKinds = []Kind{CutWatch, Gone, TooManyRequests, ServerError, Stall, Malformed, WrongType}

// AllKinds are ProxyKinds and the playground's two.
var AllKinds = append(append([]Kind(nil), ProxyKinds...), Compact, Restart)

// Fault is one fault as it hit a request or a watch: what a timeline row
// or a report shows.
type Fault struct {
	Kind Kind
	// Resource is the request's path, shortened to its resource
	// ("/api/v1/namespaces/ns/pods" → "pods"), with "watch" when it was one.
	Resource string
	// Detail says what was done: "ERROR 410 after 3 events", "metadata of
	// item 2 made a string", "skipped: protobuf".
	Detail string
	// Skipped is set when the fault could not be applied (a protobuf body).
	Skipped bool
}

func (f Fault) String() string { return fmt.Sprintf("%s %s: %s", f.Kind, f.Resource, f.Detail) }

// Planned is one fault of a schedule, At after the schedule starts.
type Planned struct {
	At   time.Duration
	Kind Kind
}
