//go:build conformance

// Adapter for client-go's tools/cache/listwatch_test.go, run in package
// listwatch by internal/conformance. Its one test is excluded (the WatchList
// opt-out stage 01 leaves out), so nothing needs renaming yet; the file is
// here so that un-excluding it is a change to this file only.

package listwatch
