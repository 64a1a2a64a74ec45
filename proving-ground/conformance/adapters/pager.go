//go:build conformance

// Adapter for client-go's tools/pager/pager_test.go, run in package pager by
// proving-ground/conformance. Our pager keeps client-go's names, internal ones
// (eachListChunkBuffered) included, so nothing needs renaming.

package pager
