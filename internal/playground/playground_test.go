package playground_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"informer-from-scratch/internal/playground"
)

// TestStartServesAndStopLeavesNothing starts a playground, talks to it, stops
// it, and checks that no child process and no directory are left behind.
func TestStartServesAndStopLeavesNothing(t *testing.T) {
	ctx := context.Background()
	c, err := playground.Start(ctx, playground.Options{Progress: testWriter{t}})
	if err != nil {
		t.Fatal(err)
	}
	pids := c.PIDs()
	client, err := kubernetes.NewForConfig(c.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	v, err := client.Discovery().ServerVersion()
	if err != nil {
		t.Fatalf("server version: %v", err)
	}
	// The playground's own build, or the learner's kube-apiserver when
	// PLAYGROUND_BINARIES or KUBEBUILDER_ASSETS names one that fits.
	if want := c.Binaries().APIServerVersion; v.GitVersion != want {
		t.Errorf("server says it is %q, want %q", v.GitVersion, want)
	}
	if _, err := client.CoreV1().Namespaces().Get(ctx, "default", metav1.GetOptions{}); err != nil {
		t.Errorf("default namespace: %v", err)
	}
	if _, err := os.Stat(c.Kubeconfig); err != nil {
		t.Errorf("kubeconfig: %v", err)
	}

	if err := c.Stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); err == nil {
			t.Errorf("process %d still running after Stop", pid)
		}
	}
	if _, err := os.Stat(c.Dir); !os.IsNotExist(err) {
		t.Errorf("%s still exists after Stop (err=%v)", filepath.Base(c.Dir), err)
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) { w.t.Log(string(p)); return len(p), nil }
