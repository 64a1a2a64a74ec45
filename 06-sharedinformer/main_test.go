package informer_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if any test leaves a goroutine behind: an
// informer's reflector, processLoop, processor and listeners must all end
// when its context does.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
