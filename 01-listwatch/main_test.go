package listwatch_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"k8s.io/client-go/kubernetes"

	"informer-from-scratch/internal/playground"
	"informer-from-scratch/internal/reqlog"
)

// cluster is one playground for the whole package, with the watch cache off
// so that etcd compaction produces real 410 Gone answers.
var cluster *playground.Cluster

func TestMain(m *testing.M) {
	var err error
	cluster, err = playground.Start(context.Background(), playground.Options{DisableWatchCache: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, "starting the playground:", err)
		os.Exit(1)
	}
	code := m.Run()
	if err := cluster.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "stopping the playground:", err)
	}
	os.Exit(code)
}

// recordingClient returns a clientset whose requests rec records.
func recordingClient(t *testing.T, rec *reqlog.Recorder) kubernetes.Interface {
	t.Helper()
	cfg := cluster.RESTConfig()
	if rec != nil {
		rec.Wrap(cfg)
	}
	return kubernetes.NewForConfigOrDie(cfg)
}
