package playground

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestStartTriesAgainWhenAPortIsTaken hands the first attempt a port that is
// already in use, as when another process takes it between freePorts and a
// child's bind: Start must start again on other ports. The squatter either
// refuses (503), or answers like a healthy etcd (200 over plain http), or,
// the hard case, like a healthy etcd or apiserver of another playground
// (200 over TLS, with a certificate from another CA). None of them may be
// taken for our child.
func TestStartTriesAgainWhenAPortIsTaken(t *testing.T) {
	for _, tc := range []struct {
		name   string
		port   int // index in pickPorts's answer: 0 etcd's client port, 2 the apiserver's
		status int
		tls    bool
	}{
		{"etcd port, refuses", 0, http.StatusServiceUnavailable, false},
		{"etcd port, healthy over http", 0, http.StatusOK, false},
		{"etcd port, healthy over TLS", 0, http.StatusOK, true},
		{"apiserver port, ready over TLS", 2, http.StatusOK, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			startWithASquatter(t, tc.port, tc.status, tc.tls)
		})
	}
}

func startWithASquatter(t *testing.T, index, status int, useTLS bool) {
	// Whoever holds the port answers at once, so that polling our child
	// there does not wait for a timeout.
	squatter := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(status)
	}))
	if useTLS {
		squatter.StartTLS() // a certificate for 127.0.0.1 from httptest's own CA
	} else {
		squatter.Start()
	}
	defer squatter.Close()
	taken := squatter.Listener.Addr().(*net.TCPAddr).Port

	calls := 0
	pickPorts = func(n int) ([]int, error) {
		calls++
		ports, err := freePorts(n)
		if calls == 1 && err == nil {
			ports[index] = taken
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
	suffix := fmt.Sprintf(":%d", taken)
	if strings.HasSuffix(c.EtcdURL, suffix) || strings.HasSuffix(c.Host, suffix) {
		t.Errorf("the playground uses the squatter at port %d (etcd %s, apiserver %s)", taken, c.EtcdURL, c.Host)
	}
}
