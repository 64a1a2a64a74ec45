package indexer_test

import (
	"os"
	"testing"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
)

func TestMain(m *testing.M) {
	// client-go's ListAllByNamespace logs a warning each time it falls back
	// to a scan; the lister tests do that on purpose, hundreds of times.
	klog.SetLogger(logr.Discard())
	os.Exit(m.Run())
}
