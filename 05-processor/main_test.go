package processor

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if any test leaves a goroutine behind: every
// listener's pop, run and watchSynced must end when its processor stops.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
