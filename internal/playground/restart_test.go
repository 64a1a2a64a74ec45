package playground_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"

	"informer-from-scratch/internal/playground"
)

// TestRestartAPIServerKeepsEtcdData restarts the apiserver under a client
// that keeps its configuration: the old process is gone, a new one answers
// on the same address, an object written before is still there with the
// same resourceVersion, a watch open across the restart ends, and a watch
// from a resourceVersion taken before the restart resumes without a 410
// (etcd's history is kept), delivering a change made after it.
func TestRestartAPIServerKeepsEtcdData(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the playground; skipped with -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c, err := playground.Start(ctx, playground.Options{Progress: testWriter{t}, DisableWatchCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	client, err := kubernetes.NewForConfig(c.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	cms := client.CoreV1().ConfigMaps("default")
	before, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "kept"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := cms.Watch(ctx, metav1.ListOptions{ResourceVersion: before.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	oldPIDs := c.PIDs()

	start := time.Now()
	if err := c.RestartAPIServer(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("restarted in %s", time.Since(start).Round(time.Millisecond))
	newPIDs := c.PIDs()
	if oldPIDs[0] != newPIDs[0] {
		t.Errorf("etcd's pid changed from %d to %d: etcd must keep running", oldPIDs[0], newPIDs[0])
	}
	if oldPIDs[1] == newPIDs[1] || syscall.Kill(oldPIDs[1], 0) == nil {
		t.Errorf("the old apiserver (pid %d) still runs, or was not replaced (now %d)", oldPIDs[1], newPIDs[1])
	}
	if !drains(w) {
		t.Error("a watch open across the restart did not end")
	}

	after, err := cms.Get(ctx, "kept", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("the object written before the restart: %v", err)
	}
	if after.ResourceVersion != before.ResourceVersion {
		t.Errorf("resourceVersion %s before the restart, %s after: etcd's data was not kept", before.ResourceVersion, after.ResourceVersion)
	}
	resumed, err := cms.Watch(ctx, metav1.ListOptions{ResourceVersion: before.ResourceVersion})
	if err != nil {
		t.Fatalf("a watch from the old resourceVersion: %v", err)
	}
	defer resumed.Stop()
	changed, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "after"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case e := <-resumed.ResultChan():
		m, _ := e.Object.(metav1.Object)
		if e.Type != watch.Added || m == nil || m.GetName() != "after" {
			t.Errorf("the resumed watch's first event is %s %T, want ADDED of configmap after", e.Type, e.Object)
		}
	case <-time.After(30 * time.Second):
		t.Errorf("the resumed watch delivered nothing in 30s (want configmap after at %s)", changed.ResourceVersion)
	}
	if rv, _ := strconv.Atoi(changed.ResourceVersion); rv <= mustAtoi(t, before.ResourceVersion) {
		t.Errorf("resourceVersion went back across the restart: %s then %s", before.ResourceVersion, changed.ResourceVersion)
	}

	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range slices.Concat(oldPIDs, newPIDs) {
		if syscall.Kill(pid, 0) == nil {
			t.Errorf("process %d still runs after Stop", pid)
		}
	}
	if err := c.RestartAPIServer(ctx); err == nil {
		t.Error("RestartAPIServer after Stop: want an error")
	}
}

// drains reads a watch until it ends, for up to 30 seconds.
func drains(w watch.Interface) bool {
	deadline := time.After(30 * time.Second)
	for {
		select {
		case _, ok := <-w.ResultChan():
			if !ok {
				return true
			}
		case <-deadline:
			return false
		}
	}
}

func mustAtoi(t *testing.T, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(fmt.Errorf("resourceVersion %q: %w", s, err))
	}
	return n
}
