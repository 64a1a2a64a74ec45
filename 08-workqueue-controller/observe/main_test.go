package observe

import (
	"testing"

	"informer-from-scratch/internal/testenv"
)

// TestMain: testenv.Main silences klog (client-go logs the cut answers some
// tests make on purpose) and fails the package if a test left a goroutine
// behind.
func TestMain(m *testing.M) { testenv.Main(m, testenv.Options{}) }
