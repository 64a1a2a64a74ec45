// Not a mirror of client-go: a helper for the demos and tests of stages 02
// and 06 (it was stage 02's, in 02-reflector/internal). It wraps
// a ListerWatcher (the interface of tools/cache/listwatch.go) so that a
// reflector's watch can be cut, and new watches held back, the way a
// network partition would, and so that every watch event can be seen as it
// passes.

// Package partition puts a network partition between a reflector and the
// apiserver, on demand. While the connection is cut, the current watch ends
// (as if the connection dropped) and every new watch request waits; a demo
// uses that time to change objects and compact etcd, so that the reflector's
// next watch, from its old resourceVersion, meets a 410. LIST requests are
// never held: a reflector that relists gets its answer.
package partition

import (
	"context"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// ListerWatcher passes requests to the ListerWatcher it wraps, except while
// its connection is cut.
type ListerWatcher struct {
	lw listerWatcher
	// OnEvent, if set, sees every event of every watch before the
	// reflector does.
	OnEvent func(watch.Event)

	mu        sync.Mutex
	connected chan struct{} // closed while the connection is up
	watches   map[*cutWatch]struct{}
}

// listerWatcher is what a ListerWatcher wraps: stage 01's
// ListerWatcherWithContext (client-go's, too), spelled out here so that the
// workbench imports no stage. The tests that use it check the fit.
type listerWatcher interface {
	ListWithContext(ctx context.Context, options metav1.ListOptions) (runtime.Object, error)
	WatchWithContext(ctx context.Context, options metav1.ListOptions) (watch.Interface, error)
}

// New returns a connected ListerWatcher around lw.
func New(lw listerWatcher) *ListerWatcher {
	c := &ListerWatcher{lw: lw, connected: make(chan struct{}), watches: map[*cutWatch]struct{}{}}
	close(c.connected)
	return c
}

// Cut ends every open watch and holds new watch requests until Restore.
func (c *ListerWatcher) Cut() {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.connected:
		c.connected = make(chan struct{})
	default: // already cut
	}
	for w := range c.watches {
		w.Stop()
	}
}

// Restore lets held and new watch requests through.
func (c *ListerWatcher) Restore() {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.connected:
	default:
		close(c.connected)
	}
}

// ListWithContext lists; it is never held.
func (c *ListerWatcher) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	return c.lw.ListWithContext(ctx, opts)
}

// WatchWithContext waits while the connection is cut, then starts a watch.
func (c *ListerWatcher) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	c.mu.Lock()
	connected := c.connected
	c.mu.Unlock()
	select {
	case <-connected:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	inner, err := c.lw.WatchWithContext(ctx, opts)
	if err != nil {
		return nil, err
	}
	w := &cutWatch{inner: inner, out: make(chan watch.Event), stop: make(chan struct{}), onEvent: c.OnEvent}
	c.mu.Lock()
	c.watches[w] = struct{}{}
	c.mu.Unlock()
	go func() {
		w.forward()
		c.mu.Lock()
		delete(c.watches, w)
		c.mu.Unlock()
	}()
	return w, nil
}

// List is ListWithContext without a context.
func (c *ListerWatcher) List(opts metav1.ListOptions) (runtime.Object, error) {
	return c.ListWithContext(context.Background(), opts)
}

// Watch is WatchWithContext without a context.
func (c *ListerWatcher) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return c.WatchWithContext(context.Background(), opts)
}

// cutWatch forwards an inner watch's events until it is stopped, by the
// reflector or by Cut; then it stops the inner watch and closes its
// channel, which the reflector sees as the server ending the watch.
type cutWatch struct {
	inner   watch.Interface
	out     chan watch.Event
	stop    chan struct{}
	once    sync.Once
	onEvent func(watch.Event)
}

func (w *cutWatch) ResultChan() <-chan watch.Event { return w.out }

func (w *cutWatch) Stop() { w.once.Do(func() { close(w.stop) }) }

func (w *cutWatch) forward() {
	defer close(w.out)
	defer w.inner.Stop()
	for {
		select {
		case <-w.stop:
			return
		case e, ok := <-w.inner.ResultChan():
			if !ok {
				return
			}
			if w.onEvent != nil {
				w.onEvent(e)
			}
			select {
			case w.out <- e:
			case <-w.stop:
				return
			}
		}
	}
}
