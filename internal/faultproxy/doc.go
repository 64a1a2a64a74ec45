// Not a mirror of client-go: test machinery for issue 14's chaos runs. It
// plays the network and the apiserver misbehaving, so that an informer's
// recovery paths (stage 02's relist on 410, its backoff, the rest client's
// Retry-After, the watch decoder's errors) run against a real server.

// Package faultproxy is a fault-injecting HTTP proxy on loopback, between
// informers and the playground's kube-apiserver. Clients talk plain HTTP to
// it (RESTConfig); it forwards every request over the apiserver's own TLS and
// credentials, and, when a fault is injected, misbehaves in one of the ways a
// real cluster does:
//
//	CutWatch         every open watch's connection is aborted mid-stream
//	Gone             every open watch gets an ERROR event, 410 Expired, and ends
//	TooManyRequests  the next requests are answered 429 with Retry-After: 1
//	ServerError      the next requests are answered 500
//	Stall            the next responses, and every open watch, are held for a while
//	Malformed        the next LIST is cut short, or the next watch event's
//	                 metadata is a string: neither decodes
//	WrongType        the next LIST has an item whose name is a number (it does
//	                 not decode); the next watch event is preceded by a copy of
//	                 itself of another kind (it decodes, to the wrong type)
//
// The two faults of the playground itself, an etcd compaction (a real 410 on
// the next resume) and a restart of the kube-apiserver with etcd's data kept,
// are not the proxy's to make; Plan schedules them beside the others and the
// caller makes them (playground.Cluster's Compact and RestartAPIServer).
//
// Body faults edit JSON, client-go's default encoding. A protobuf response
// (a client that set ContentType to application/vnd.kubernetes.protobuf) is
// passed through untouched and the fault is counted as skipped: editing
// protobuf would need the message's schema, and the decoder's errors it
// would cause are the same ones the JSON faults reach.
//
// Everything random (which item of a list, which fault when, how long a
// stall) comes from the seed, so a run's fault schedule can be replayed; what
// the informers do about it depends on timing, and is not.
package faultproxy
