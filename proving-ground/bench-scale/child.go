package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	apiruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/pager"
	"k8s.io/utils/ptr"

	listwatch "informer-from-scratch/01-listwatch"
	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/proving-ground/replay"
)

// spec is one measurement, run in a process of its own (see heap.go).
type spec struct {
	Kind       string // "sync", "floor", "keep" or "steady"
	Impl       string // "client-go", "ours" or "ours-deltafifo"
	URL        string // the replay server, or empty with Kubeconfig
	Kubeconfig string // the playground
	Encoding   replay.Encoding
	Mode       string // "watchlist", "list" or "list-paged"
	N          int
	Transform  bool // drop managedFields before anything is queued
	// steady state
	Handlers int
	Burst    int           // updates sent as fast as they are taken
	Paced    int           // updates sent one every Interval, for latency
	Interval time.Duration //
	// Diagnose splits the steady state's latency in two at the queue (see
	// queueStamps) and counts the garbage collections of the paced phase.
	Diagnose bool
	// Profile, if set, is a path prefix: the sync's CPU profile goes to
	// Profile+".cpu.pprof", its allocations to Profile+".allocs.pprof".
	Profile string
}

// result is what a child prints, as one JSON line.
type result struct {
	SyncSeconds  float64 `json:",omitempty"`
	PeakHeap     uint64  `json:",omitempty"` // highest heap during the sync, above the heap before it
	Allocated    uint64  `json:",omitempty"` // bytes allocated during the sync
	HeldPerObj   float64 `json:",omitempty"` // heap still reachable after the sync, per pod
	PeakRSS      uint64  `json:",omitempty"` // the process's VmHWM
	EventsPerSec float64 `json:",omitempty"`
	P50, P99     float64 `json:",omitempty"` // seconds from the server's write to the handler's call
	// With Diagnose: the p99 of the same latency's two parts, the server's
	// write to the queue's Add and the queue's Add to the handler's call,
	// and the garbage collections and their total pause during the paced updates.
	QueueP99, HandlerP99 float64 `json:",omitempty"`
	GCs                  uint32  `json:",omitempty"`
	GCPause              float64 `json:",omitempty"`
}

// side is an informer under measurement, ours or client-go's.
type side struct {
	run       func(context.Context)
	hasSynced func() bool
	add       func(cache.ResourceEventHandler) error
	keepAlive any
}

func restConfig(s spec) (*rest.Config, error) {
	if s.Kubeconfig == "" {
		return replay.ConfigFor(s.URL, s.Encoding), nil
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", s.Kubeconfig)
	if err != nil {
		return nil, err
	}
	cfg.ContentType = s.Encoding.MediaType()
	cfg.AcceptContentTypes = s.Encoding.MediaType()
	cfg.QPS = -1
	return cfg, nil
}

func dropManagedFields(obj any) (any, error) {
	if m, err := meta.Accessor(obj); err == nil {
		m.SetManagedFields(nil)
	}
	return obj, nil
}

// newSide builds the informer a spec names, with the namespace index every
// generated pod informer has, and handler as its one handler. client-go's
// WatchList is a feature gate: the parent sets KUBE_FEATURE_WatchListClient
// in this process's environment; ours is an option.
func newSide(s spec, client kubernetes.Interface, handler cache.ResourceEventHandler, stamp func(any)) (side, error) {
	rc := client.CoreV1().RESTClient()
	var sd side
	var setTransform func(stamp func(any)) error
	transform := func(stamp func(any)) cache.TransformFunc {
		return func(obj any) (any, error) {
			if stamp != nil {
				stamp(obj)
			}
			if !s.Transform {
				return obj, nil
			}
			return dropManagedFields(obj)
		}
	}
	switch s.Impl {
	case "client-go":
		lw := cache.NewListWatchFromClient(rc, "pods", "", fields.Everything())
		inf := cache.NewSharedIndexInformer(lw, &corev1.Pod{}, 0, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
		setTransform = func(stamp func(any)) error { return inf.SetTransform(transform(stamp)) }
		sd = side{run: inf.RunWithContext, hasSynced: inf.HasSynced, keepAlive: inf,
			add: func(h cache.ResourceEventHandler) error { _, err := inf.AddEventHandler(h); return err }}
	case "ours", "ours-deltafifo":
		lw := listwatch.NewListWatchFromClient(rc, "pods", "", fields.Everything())
		queue := informer.QueueRealFIFO
		if s.Impl == "ours-deltafifo" {
			queue = informer.QueueDeltaFIFO
		}
		inf := informer.NewSharedIndexInformerWithOptions(lw, &corev1.Pod{}, informer.SharedIndexInformerOptions{
			Indexers:     informer.Indexers{informer.NamespaceIndex: informer.MetaNamespaceIndexFunc},
			Queue:        queue,
			UseWatchList: ptr.To(s.Mode == "watchlist"),
		})
		setTransform = func(stamp func(any)) error { return inf.SetTransform(transform(stamp)) }
		sd = side{run: inf.RunWithContext, hasSynced: inf.HasSynced, keepAlive: inf,
			add: func(h cache.ResourceEventHandler) error { _, err := inf.AddEventHandler(h); return err }}
	default:
		return side{}, fmt.Errorf("no informer called %q", s.Impl)
	}
	if s.Transform || stamp != nil {
		if err := setTransform(stamp); err != nil {
			return side{}, err
		}
	}
	return sd, sd.add(handler)
}

// runChild runs one measurement and prints its result.
func runChild(arg string) error {
	var s spec
	if err := json.Unmarshal([]byte(arg), &s); err != nil {
		return fmt.Errorf("bad -child spec: %w", err)
	}
	cfg, err := restConfig(s)
	if err != nil {
		return err
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	var r result
	switch s.Kind {
	case "sync":
		r, err = measureSync(s, client)
	case "floor":
		r, err = measureFloor(s, client, false)
	case "keep":
		r, err = measureFloor(s, client, true)
	case "steady":
		r, err = measureSteady(s, client)
	default:
		err = fmt.Errorf("no measurement called %q", s.Kind)
	}
	if err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(r)
}

// measureSync times an informer from Run to HasSynced, with the heap
// sampled throughout. Its one handler does nothing, as the cheapest
// controller's would; the informer's HasSynced does not wait for it.
func measureSync(s spec, client kubernetes.Interface) (result, error) {
	inf, err := newSide(s, client, cache.ResourceEventHandlerFuncs{}, nil)
	if err != nil {
		return result{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	runCtx, stop := context.WithCancel(ctx)
	defer func() {
		stop()
		wg.Wait()
	}()
	return measured(s.N, s.Profile, func() (any, error) {
		wg.Go(func() { inf.run(runCtx) })
		for !inf.hasSynced() {
			if ctx.Err() != nil {
				return nil, errors.New("the informer did not sync in 5 minutes")
			}
			time.Sleep(time.Millisecond)
		}
		return inf.keepAlive, nil
	})
}

// measured runs work with the heap sampled throughout and times it, then
// weighs what work returned once only what is reachable is left.
func measured(n int, profile string, work func() (keep any, err error)) (result, error) {
	base := settledHeap()
	_, allocBefore := heapNow()
	stopProfile, err := startProfile(profile)
	if err != nil {
		return result{}, err
	}
	sampler := startHeapSampler()
	start := time.Now()
	keep, err := work()
	elapsed := time.Since(start)
	peak := sampler.Stop()
	if perr := stopProfile(); err == nil {
		err = perr
	}
	if err != nil {
		return result{}, err
	}
	_, allocAfter := heapNow()
	held := settledHeap()
	runtime.KeepAlive(keep)
	return result{
		SyncSeconds: elapsed.Seconds(),
		PeakHeap:    peak - min(peak, base),
		Allocated:   allocAfter - allocBefore,
		HeldPerObj:  float64(held-min(held, base)) / float64(n),
		PeakRSS:     peakRSS(),
	}, nil
}

// startProfile starts a CPU profile when prefix is set; the returned stop
// ends it and writes the allocations made since the process started.
func startProfile(prefix string) (stop func() error, err error) {
	if prefix == "" {
		return func() error { return nil }, nil
	}
	cpu, err := os.Create(prefix + ".cpu.pprof")
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		return nil, err
	}
	return func() error {
		pprof.StopCPUProfile()
		cpu.Close()
		f, err := os.Create(prefix + ".allocs.pprof")
		if err != nil {
			return err
		}
		defer f.Close()
		return pprof.Lookup("allocs").WriteTo(f, 0)
	}, nil
}

// measureFloor is the least any informer must do in a mode: read the
// same bytes over the same loopback and decode them into pods, nothing
// else. For a LIST, one request decoded into a PodList; for a paged LIST,
// client-go's pager over the same pages; for WatchList, the same stream
// read until its bookmark, each pod kept in a slice.
//
// With keep, it also files every pod in a map by its key, as an informer's
// cache does (the "decode and keep" floor): ours÷keep is then what the
// informer costs beyond holding the objects it must hold, garbage
// collection of that growing heap included.
func measureFloor(s spec, client kubernetes.Interface, keep bool) (result, error) {
	return measured(s.N, "", func() (any, error) {
		pods, err := floorRead(s, client)
		if err == nil && floorLen(pods) != s.N {
			err = fmt.Errorf("the floor read %d pods, want %d", floorLen(pods), s.N)
		}
		if err != nil || !keep {
			return pods, err
		}
		return keyed(pods), nil
	})
}

// keyed files each pod under "namespace/name".
func keyed(pods any) map[string]apiruntime.Object {
	out := map[string]apiruntime.Object{}
	add := func(obj apiruntime.Object) {
		if m, err := meta.Accessor(obj); err == nil {
			out[m.GetNamespace()+"/"+m.GetName()] = obj
		}
	}
	switch p := pods.(type) {
	case *corev1.PodList:
		for i := range p.Items {
			add(&p.Items[i])
		}
	case []apiruntime.Object:
		for _, obj := range p {
			add(obj)
		}
	}
	return out
}

func floorLen(pods any) int {
	switch p := pods.(type) {
	case *corev1.PodList:
		return len(p.Items)
	case []apiruntime.Object:
		return len(p)
	}
	return -1
}

func floorRead(s spec, client kubernetes.Interface) (any, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	pods := client.CoreV1().Pods("")
	switch s.Mode {
	case "list":
		return pods.List(ctx, metav1.ListOptions{ResourceVersion: "0"})
	case "list-paged":
		p := pager.New(func(ctx context.Context, opts metav1.ListOptions) (apiruntime.Object, error) {
			return pods.List(ctx, opts)
		})
		list, _, err := p.List(ctx, metav1.ListOptions{ResourceVersion: "0"})
		if err != nil {
			return nil, err
		}
		return meta.ExtractList(list)
	case "watchlist":
		w, err := pods.Watch(ctx, metav1.ListOptions{
			SendInitialEvents: ptr.To(true), AllowWatchBookmarks: true,
			ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan,
		})
		if err != nil {
			return nil, err
		}
		defer w.Stop()
		var got []apiruntime.Object
		for ev := range w.ResultChan() {
			if ev.Type == watch.Bookmark {
				if m, err := meta.Accessor(ev.Object); err == nil && m.GetAnnotations()[metav1.InitialEventsAnnotationKey] == "true" {
					return got, nil
				}
				continue
			}
			got = append(got, ev.Object)
		}
		return nil, errors.New("the WatchList stream ended before its bookmark")
	}
	return nil, fmt.Errorf("no floor for mode %q", s.Mode)
}

// latencyHandler records, per handler, when each update reached it.
type latencyHandler struct {
	n        int
	received []int64 // wall-clock Unix nanoseconds, by update index
	count    atomic.Int64
	target   atomic.Int64
	reached  chan struct{}
}

func (h *latencyHandler) OnAdd(any, bool) {}
func (h *latencyHandler) OnDelete(any)    {}
func (h *latencyHandler) OnUpdate(_, obj any) {
	now := time.Now().UnixNano()
	if i := replay.UpdateIndex(obj.(*corev1.Pod).ResourceVersion, h.n); i >= 0 && i < len(h.received) {
		h.received[i] = now
	}
	if h.count.Add(1) == h.target.Load() {
		h.reached <- struct{}{}
	}
}

// measureSteady syncs, then has the server send a burst of updates as fast
// as the informer takes them (events per second, from the first send to
// the last handler call), then a paced stream (the latency of each update
// to each handler: server write to handler call).
func measureSteady(s spec, client kubernetes.Interface) (result, error) {
	handlers := make([]*latencyHandler, s.Handlers)
	for i := range handlers {
		handlers[i] = &latencyHandler{n: s.N, received: make([]int64, s.Burst+s.Paced), reached: make(chan struct{}, 1)}
	}
	// Every handler is registered on its own, so each has its listener, as
	// ten controllers sharing one informer would.
	// The transform runs inside the queue's Add, on the reflector's
	// goroutine, in both informers: the moment an update enters the queue.
	var queued []int64
	var stamp func(any)
	if s.Diagnose {
		queued = make([]int64, s.Burst+s.Paced)
		stamp = func(obj any) {
			if pod, ok := obj.(*corev1.Pod); ok {
				if i := replay.UpdateIndex(pod.ResourceVersion, s.N); i >= 0 && i < len(queued) {
					queued[i] = time.Now().UnixNano()
				}
			}
		}
	}
	inf, err := newSide(s, client, handlers[0], stamp)
	if err != nil {
		return result{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for _, h := range handlers[1:] {
		if err := inf.add(h); err != nil {
			return result{}, err
		}
	}
	var wg sync.WaitGroup
	runCtx, stop := context.WithCancel(ctx)
	defer func() {
		stop()
		wg.Wait()
	}()
	wg.Go(func() { inf.run(runCtx) })
	for !inf.hasSynced() {
		if ctx.Err() != nil {
			return result{}, errors.New("the informer did not sync in 5 minutes")
		}
		time.Sleep(time.Millisecond)
	}

	phase := func(from, count int, interval time.Duration) ([]int64, error) {
		for _, h := range handlers {
			h.target.Store(int64(from + count))
		}
		sent, err := postSend(ctx, s.URL, from, count, interval)
		if err != nil {
			return nil, err
		}
		for _, h := range handlers {
			select {
			case <-h.reached:
			case <-ctx.Done():
				return nil, fmt.Errorf("updates %d to %d did not all reach every handler", from, from+count)
			}
		}
		return sent, nil
	}
	sent, err := phase(0, s.Burst, 0)
	if err != nil {
		return result{}, err
	}
	last := int64(0)
	for _, h := range handlers {
		last = max(last, slices.Max(h.received[:s.Burst]))
	}
	r := result{EventsPerSec: float64(s.Burst) / (float64(last-sent[0]) / 1e9)}

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	sent, err = phase(s.Burst, s.Paced, s.Interval)
	if err != nil {
		return result{}, err
	}
	runtime.ReadMemStats(&after)
	var lat, toQueue, toHandler []float64
	for _, h := range handlers {
		for i, t := range sent {
			got := h.received[s.Burst+i]
			lat = append(lat, float64(got-t)/1e9)
			if s.Diagnose {
				q := queued[s.Burst+i]
				toQueue = append(toQueue, float64(q-t)/1e9)
				toHandler = append(toHandler, float64(got-q)/1e9)
			}
		}
	}
	r.P50, r.P99 = percentile(lat, 50), percentile(lat, 99)
	if s.Diagnose {
		r.QueueP99, r.HandlerP99 = percentile(toQueue, 99), percentile(toHandler, 99)
		r.GCs = after.NumGC - before.NumGC
		r.GCPause = float64(after.PauseTotalNs-before.PauseTotalNs) / 1e9
	}
	return r, nil
}

// percentile sorts vs and returns its pth percentile (nearest rank below).
func percentile(vs []float64, p int) float64 {
	slices.Sort(vs)
	return vs[len(vs)*p/100]
}

func postSend(ctx context.Context, url string, from, count int, interval time.Duration) ([]int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, fmt.Sprintf("%s/replay/send?from=%d&count=%d&interval=%s", url, from, count, interval), nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("replay server: %s", resp.Status)
	}
	var sent []int64
	return sent, json.NewDecoder(resp.Body).Decode(&sent)
}
