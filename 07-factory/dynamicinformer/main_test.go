package dynamicinformer_test

import (
	"testing"

	"informer-from-scratch/internal/playground"
	"informer-from-scratch/internal/testenv"
)

// TestMain: testenv.Main silences klog, stops the shared playground, and
// fails the package if a goroutine is left.
func TestMain(m *testing.M) { testenv.Main(m, testenv.Options{}) }

func cluster(t *testing.T) *playground.Cluster { return testenv.Cluster(t) }
