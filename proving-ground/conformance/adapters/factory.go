//go:build conformance

// Adapter for the one client-go test run against 07-factory: TestSyncResult
// of tools/cache/wait_test.go (stages.go runs only it; the file's other
// tests are stage 06's). client-go declares SyncResult in tools/cache; stage
// 07 declares it beside the factory's wait, under the same name and with
// the same fields and AsError, so nothing needs renaming. The file is here
// so that a later rename is a change to this file only.

package factory
