// Mirrors k8s.io/client-go v0.37.2 tools/cache/listwatch.go
// (ToListWatcherWithWatchListSemantics and its wrapper) and
// util/watchlist/watch_list.go (DoesClientNotSupportWatchListSemantics).

package listwatch

// The WatchList opt-out. A WatchList request (sendInitialEvents=true) needs
// a server that streams the current state and ends it with the
// initial-events-end bookmark. client-go's fake clientsets
// (k8s.io/client-go/kubernetes/fake, dynamic/fake, metadata/fake, and the
// object tracker of k8s.io/client-go/testing) cannot: they answer with a
// plain watch and never send that bookmark, so a reflector that streams on
// them waits for ever. They say so with a method,
// IsWatchListSemanticsUnSupported, that returns true; a ListerWatcher built
// by ToListWatcherWithWatchListSemantics carries that answer to the
// reflector, which then sends a LIST and a WATCH instead. client-go's
// generated informers build every ListWatch this way, passing their
// clientset, which is why informers on a fake clientset sync.

// unSupportedWatchListSemantics is implemented by clients, and by the
// wrapper below, that can say they cannot serve a WatchList stream.
type unSupportedWatchListSemantics interface {
	IsWatchListSemanticsUnSupported() bool
}

// DoesClientNotSupportWatchListSemantics reports whether client says it
// cannot serve a WatchList stream: only when it has
// IsWatchListSemanticsUnSupported and that returns true. A real clientset
// has no such method, so WatchList stays on.
func DoesClientNotSupportWatchListSemantics(client any) bool {
	c, ok := client.(unSupportedWatchListSemantics)
	if !ok {
		return false
	}
	return c.IsWatchListSemanticsUnSupported()
}

// listWatcherWithWatchListSemanticsWrapper is a ListWatch that also answers
// IsWatchListSemanticsUnSupported for the client it was built with.
type listWatcherWithWatchListSemanticsWrapper struct {
	*ListWatch
	// unsupportedWatchListSemantics is the client's answer, taken once.
	unsupportedWatchListSemantics bool
}

func (lw *listWatcherWithWatchListSemanticsWrapper) IsWatchListSemanticsUnSupported() bool {
	return lw.unsupportedWatchListSemantics
}

// ToListWatcherWithWatchListSemantics returns lw as a ListerWatcher that also
// tells a reflector whether client can serve WatchList streams (see
// DoesClientNotSupportWatchListSemantics). Pass the clientset whose calls
// lw's functions make: stage 07's factory does, as client-go's generated
// informers do.
func ToListWatcherWithWatchListSemantics(lw *ListWatch, client any) ListerWatcher {
	return &listWatcherWithWatchListSemanticsWrapper{
		ListWatch:                     lw,
		unsupportedWatchListSemantics: DoesClientNotSupportWatchListSemantics(client),
	}
}
