// Not a mirror of client-go: a helper for stage 02's demo and tests. It wraps
// a ListerWatcher (the interface of tools/cache/listwatch.go) so that a
// reflector's watch can be cut, and new watches held back, the way a
// network partition would, and so that every watch event can be seen as it
// passes.

// Package cable puts a reflector's connection on a cable that can be
// unplugged. While unplugged, the current watch ends (as if the connection
// dropped) and every new watch request waits; the demo uses that time to
// change objects and compact etcd, so that the reflector's next watch, from
// its old resourceVersion, meets a 410. LIST requests are never held: a
// reflector that relists gets its answer.
package cable

import (
	"context"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	listwatch "informer-from-scratch/01-listwatch"
)

// Cable is a ListerWatcher that passes requests to the one it wraps.
type Cable struct {
	lw listwatch.ListerWatcherWithContext
	// OnEvent, if set, sees every event of every watch before the
	// reflector does.
	OnEvent func(watch.Event)

	mu      sync.Mutex
	plugged chan struct{} // closed while plugged in
	watches map[*cutWatch]struct{}
}

var (
	_ listwatch.ListerWatcherWithContext = &Cable{}
	_ listwatch.ListerWatcher            = &Cable{}
)

// New returns a plugged-in cable around lw.
func New(lw listwatch.ListerWatcherWithContext) *Cable {
	c := &Cable{lw: lw, plugged: make(chan struct{}), watches: map[*cutWatch]struct{}{}}
	close(c.plugged)
	return c
}

// Unplug ends every open watch and holds new watch requests until Plug.
func (c *Cable) Unplug() {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.plugged:
		c.plugged = make(chan struct{})
	default: // already unplugged
	}
	for w := range c.watches {
		w.Stop()
	}
}

// Plug lets held and new watch requests through.
func (c *Cable) Plug() {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.plugged:
	default:
		close(c.plugged)
	}
}

// ListWithContext lists; it is never held.
func (c *Cable) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	return c.lw.ListWithContext(ctx, opts)
}

// WatchWithContext waits while the cable is unplugged, then starts a watch.
func (c *Cable) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	c.mu.Lock()
	plugged := c.plugged
	c.mu.Unlock()
	select {
	case <-plugged:
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
func (c *Cable) List(opts metav1.ListOptions) (runtime.Object, error) {
	return c.ListWithContext(context.Background(), opts)
}

// Watch is WatchWithContext without a context.
func (c *Cable) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return c.WatchWithContext(context.Background(), opts)
}

// cutWatch forwards an inner watch's events until it is stopped, by the
// reflector or by Unplug; then it stops the inner watch and closes its
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
