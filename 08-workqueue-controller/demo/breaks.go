// Not a mirror of client-go: the demo's "what breaks without it" switches
// (--break). Each takes one mechanism away from the controller's world, from
// the demo's side only (a wrapped queue, a transport), never by changing the
// controller: the queue's dirty set, Forget after a success, and the owner
// reference on a Foo's Deployment. Each shows its failure on the playground,
// in the steps that would otherwise show the mechanism at work.

package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/08-workqueue-controller/controller"
	"informer-from-scratch/08-workqueue-controller/workqueue"
	"informer-from-scratch/internal/lang"
)

// breaks holds the switches; the zero value is every mechanism in place,
// as in client-go and sample-controller.
type breaks struct {
	// noDirtySet makes every Add a new item of the queue: the dirty set
	// never finds the key already marked, and the processing set never
	// finds it held. A key added three times while it waits is reconciled
	// three times, and a key added while a worker holds it is handed to
	// another worker at once. client-go's Typed.Add returns early for a key
	// in dirty, and parks a key in processing until Done
	// (util/workqueue/queue.go).
	noDirtySet bool
	// noForget makes the queue's Forget do nothing: the rate limiter keeps
	// counting a key's failures across successes, so its next failure
	// waits as if the successes never happened. sample-controller calls
	// Forget after every successful reconcile (processNextWorkItem), which
	// reaches ItemExponentialFailureRateLimiter.Forget
	// (util/workqueue/default_rate_limiters.go).
	noForget bool
	// noOwnerReference drops the owner reference from the Deployments the
	// controller creates from step 7 on (the demo's transport takes it out
	// of the request). Three things follow: the Deployment's events map to
	// no Foo, the reconcile refuses a Deployment its Foo does not control,
	// and deleting the Foo leaves the Deployment behind, because the
	// garbage collector deletes only what names a gone owner.
	// sample-controller's newDeployment sets it with
	// metav1.NewControllerRef.
	noOwnerReference bool
	// ownerless arms noOwnerReference's transport: the script sets it at
	// step 7, so that the Foo of steps 3 to 6 keeps its owner reference.
	ownerless atomic.Bool
}

// aBreak is one switch, as --break spells it.
type aBreak struct {
	name string
	what lang.Text // one line, for --break=help
	set  func(*breaks)
}

// allBreaks lists the switches in the order the chapter teaches them.
var allBreaks = []aBreak{
	{"dirty-set", sayBreakDirtySet, func(b *breaks) { b.noDirtySet = true }},
	{"forget", sayBreakForget, func(b *breaks) { b.noForget = true }},
	{"owner-reference", sayBreakOwnerRef, func(b *breaks) { b.noOwnerReference = true }},
}

// breakFlag is --break: one switch's name, or "help".
var breakFlag string

// parseBreak returns breaks with the named switch on; "" is none.
func parseBreak(name string) (*breaks, error) {
	b := &breaks{}
	if name == "" {
		return b, nil
	}
	for _, br := range allBreaks {
		if br.name == name {
			br.set(b)
			return b, nil
		}
	}
	return nil, lang.Errorf(sayNoBreak, name)
}

// printBreaks lists the switches, and how to run each, in language l.
func printBreaks(w io.Writer, l string) {
	fmt.Fprintln(w, sayBreaksIntro.In(l))
	for _, b := range allBreaks {
		fmt.Fprintf(w, "  make run-stage 8 ARGS=--break=%-16s %s\n", b.name, b.what.In(l))
	}
	fmt.Fprintln(w, sayBreaksOutro.In(l))
}

// applyBreaks sets the controller's options, or its transport, for the
// switch that is on.
func (s *script) applyBreaks(opts *controller.Options, cfg *rest.Config) {
	switch {
	case s.breaks.noOwnerReference:
		cfg.Wrap(func(next http.RoundTripper) http.RoundTripper {
			return &ownerStripper{next: next, armed: s.breaks.ownerless.Load}
		})
	case s.breaks.noDirtySet:
		opts.NewQueue = func(limiter controller.RateLimiter) controller.Queue {
			return newTicketQueue(limiter, s.metrics)
		}
	case s.breaks.noForget:
		opts.NewQueue = func(limiter controller.RateLimiter) controller.Queue {
			return noForgetQueue{workqueue.NewTypedRateLimitingQueueWithConfig(limiter,
				workqueue.TypedRateLimitingQueueConfig[informer.ObjectName]{Name: controller.QueueName, MetricsProvider: s.metrics})}
		}
	}
}

// noForgetQueue is our rate-limiting queue with Forget taken away.
type noForgetQueue struct{ controller.Queue }

// Forget does nothing: --break=forget.
func (noForgetQueue) Forget(informer.ObjectName) {}

// ticket is one Add of a key: no two tickets are equal, so our queue, which
// deduplicates equal items, deduplicates nothing.
type ticket struct {
	key informer.ObjectName
	n   uint64
}

// ticketQueue is --break=dirty-set: our own delaying queue underneath, with
// each Add made a new item. Everything else (the FIFO, the delays, the
// metrics, the drain) is ours as the controller normally gets it.
type ticketQueue struct {
	q       workqueue.TypedDelayingInterface[ticket]
	limiter controller.RateLimiter

	mu   sync.Mutex
	next uint64
	held map[informer.ObjectName][]ticket // handed out by Get, awaiting Done
}

var _ controller.Queue = (*ticketQueue)(nil)

func newTicketQueue(limiter controller.RateLimiter, provider workqueue.MetricsProvider) *ticketQueue {
	return &ticketQueue{
		q: workqueue.NewTypedDelayingQueueWithConfig(workqueue.TypedDelayingQueueConfig[ticket]{
			Name: controller.QueueName, MetricsProvider: provider}),
		limiter: limiter,
		held:    map[informer.ObjectName][]ticket{},
	}
}

func (q *ticketQueue) ticket(key informer.ObjectName) ticket {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.next++
	return ticket{key, q.next}
}

func (q *ticketQueue) Add(key informer.ObjectName) { q.q.Add(q.ticket(key)) }
func (q *ticketQueue) AddAfter(key informer.ObjectName, d time.Duration) {
	q.q.AddAfter(q.ticket(key), d)
}
func (q *ticketQueue) AddRateLimited(key informer.ObjectName) {
	q.q.AddAfter(q.ticket(key), q.limiter.When(key))
}
func (q *ticketQueue) Forget(key informer.ObjectName)          { q.limiter.Forget(key) }
func (q *ticketQueue) NumRequeues(key informer.ObjectName) int { return q.limiter.NumRequeues(key) }
func (q *ticketQueue) Len() int                                { return q.q.Len() }
func (q *ticketQueue) ShutDown()                               { q.q.ShutDown() }
func (q *ticketQueue) ShutDownWithDrain()                      { q.q.ShutDownWithDrain() }
func (q *ticketQueue) ShuttingDown() bool                      { return q.q.ShuttingDown() }

// Get hands out the next ticket's key, and remembers the ticket for Done.
func (q *ticketQueue) Get() (informer.ObjectName, bool) {
	t, shutdown := q.q.Get()
	if shutdown {
		return informer.ObjectName{}, true
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.held[t.key] = append(q.held[t.key], t)
	return t.key, false
}

// Done ends one of the key's tickets: with two workers on one key, either
// ticket will do, since nothing else tells them apart.
func (q *ticketQueue) Done(key informer.ObjectName) {
	q.mu.Lock()
	held := q.held[key]
	if len(held) == 0 {
		q.mu.Unlock()
		return
	}
	t := held[0]
	if len(held) == 1 {
		delete(q.held, key)
	} else {
		q.held[key] = held[1:]
	}
	q.mu.Unlock()
	q.q.Done(t)
}

// ownerStripper is --break=owner-reference's transport: once armed, it
// takes the owner references out of every Deployment create.
type ownerStripper struct {
	next  http.RoundTripper
	armed func() bool
}

func (o *ownerStripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPost || !strings.HasSuffix(req.URL.Path, "/deployments") || req.Body == nil || !o.armed() {
		return o.next.RoundTrip(req)
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	// Whatever the client encoded it as (JSON or protobuf), send it on as
	// JSON without the owner references.
	obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(body, nil, nil)
	d, ok := obj.(*appsv1.Deployment)
	if err != nil || !ok {
		return nil, fmt.Errorf("--break=owner-reference: a Deployment create the demo could not read: %v", err)
	}
	d.OwnerReferences = nil
	var buf bytes.Buffer
	if err := scheme.Codecs.LegacyCodec(appsv1.SchemeGroupVersion).Encode(d, &buf); err != nil {
		return nil, err
	}
	req = req.Clone(req.Context())
	stripped := buf.Bytes()
	req.Body, req.ContentLength = io.NopCloser(bytes.NewReader(stripped)), int64(len(stripped))
	// The tracer's transport, inside this one, reads the body it sends.
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(stripped)), nil }
	req.Header.Set("Content-Type", runtime.ContentTypeJSON)
	return o.next.RoundTrip(req)
}
