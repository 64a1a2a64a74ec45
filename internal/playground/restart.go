package playground

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"time"
)

// RestartAPIServer stops the kube-apiserver and starts it again on the same
// address, against the same etcd, whose data is kept: every object and its
// resourceVersion survive, as when a control plane is upgraded or its
// apiserver crashes. Clients keep their configuration; while it is down
// their requests are refused and their watches end, which is what a chaos
// run wants informers to live through. It returns once the new apiserver is
// ready, or with an error (the playground is then unusable; Stop it).
//
// Each run logs to its own file (kube-apiserver.N.log) beside the first.
func (c *Cluster) RestartAPIServer(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.api == nil || c.stopped {
		return errors.New("playground: no apiserver to restart (not started, or stopped)")
	}
	u, err := url.Parse(c.Host)
	if err != nil {
		return err
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil {
		return fmt.Errorf("playground: no port in %s: %w", c.Host, err)
	}
	stopping := time.Now()
	// SIGTERM, then SIGKILL after two seconds: with watches open the
	// apiserver's graceful shutdown waits out its full grace period (15s
	// here), and a restart under chaos is a crash more often than an
	// orderly upgrade. etcd's data is the same either way.
	if err := c.api.stop(2 * time.Second); err != nil {
		return fmt.Errorf("playground: stopping the apiserver to restart it: %w", err)
	}
	c.restarts++
	say(c.progress(), sayRestarting, time.Since(stopping).Round(time.Millisecond))
	// The port is ours again the moment the old process has exited: Go's
	// listeners set SO_REUSEADDR, so connections in TIME_WAIT do not hold it.
	api, err := c.startAPIServer(ctx, fmt.Sprintf("kube-apiserver.%d.log", c.restarts), port)
	c.api = api // Stop must see it even when it failed to become ready
	if err != nil {
		return fmt.Errorf("playground: restarting the apiserver: %w", err)
	}
	return nil
}

func (c *Cluster) progress() io.Writer {
	if c.opts.Progress != nil {
		return c.opts.Progress
	}
	return os.Stderr
}
