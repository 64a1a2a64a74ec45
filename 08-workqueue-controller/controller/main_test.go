package controller_test

import (
	"testing"

	"informer-from-scratch/internal/playground"
	"informer-from-scratch/internal/testenv"
)

// TestMain: testenv.Main silences klog (the controllers report the failures
// some tests provoke on purpose), stops the playground the integration
// tests share, and fails the package if a test left a goroutine behind.
func TestMain(m *testing.M) { testenv.Main(m, testenv.Options{}) }

// cluster is the package's playground, started the first time a test needs
// it.
func cluster(t *testing.T) *playground.Cluster { return testenv.Cluster(t) }
