package playground

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
)

// TestStartTriesAgainWhenAPortIsTaken hands the first attempt an etcd client
// port that is already in use, as when another process takes it between
// freePorts and etcd's bind: Start must start again on other ports. The
// squatter either refuses (503) or answers /health like a healthy etcd (200):
// that second one must not be taken for ours.
func TestStartTriesAgainWhenAPortIsTaken(t *testing.T) {
	for _, status := range []int{http.StatusServiceUnavailable, http.StatusOK} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			startWithASquatter(t, status)
		})
	}
}

func startWithASquatter(t *testing.T, status int) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	// Whoever holds the port answers at once, so that polling etcd's
	// health there does not wait for a timeout.
	go http.Serve(taken, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(status)
	}))
	calls := 0
	pickPorts = func(n int) ([]int, error) {
		calls++
		ports, err := freePorts(n)
		if calls == 1 && err == nil {
			ports[0] = taken.Addr().(*net.TCPAddr).Port
		}
		return ports, err
	}
	defer func() { pickPorts = freePorts }()

	var progress bytes.Buffer
	c, err := Start(context.Background(), Options{Progress: &progress})
	if err != nil {
		t.Fatalf("Start: %v\nprogress:\n%s", err, progress.String())
	}
	defer c.Stop()
	if calls != 2 {
		t.Errorf("ports were picked %d times, want 2 (the taken set, then a free one)", calls)
	}
	if !strings.Contains(progress.String(), "starting again on other ports") {
		t.Errorf("Start did not say why it started again:\n%s", progress.String())
	}
	if strings.HasSuffix(c.EtcdURL, fmt.Sprintf(":%d", taken.Addr().(*net.TCPAddr).Port)) {
		t.Errorf("the playground uses the squatter at %s as its etcd", c.EtcdURL)
	}
}
