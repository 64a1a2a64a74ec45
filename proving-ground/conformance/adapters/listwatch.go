//go:build conformance

// Adapter for client-go's tools/cache/listwatch_test.go, run in package
// listwatch by proving-ground/conformance. Its one test,
// TestToListWatcherWithWatchListSemantics, calls stage 01's function of the
// same name and reads the answer with client-go's own
// watchlist.DoesClientNotSupportWatchListSemantics, so nothing needs
// renaming; the file is here so that a later rename is a change to this file
// only.

package listwatch
