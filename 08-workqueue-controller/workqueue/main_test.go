package workqueue

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if any test leaves a goroutine behind: every
// waiting loop and unfinished-work loop must end when its queue shuts down.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
