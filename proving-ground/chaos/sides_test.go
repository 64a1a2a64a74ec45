package chaos_test

import (
	"context"
	"reflect"
	"sync"
	"sync/atomic"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"

	listwatch "informer-from-scratch/01-listwatch"
	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/proving-ground/chaos"
)

// examples are each resource's object type, for the informers and for
// CacheContent's type check.
var examples = map[string]runtime.Object{
	"configmaps": &corev1.ConfigMap{},
	"secrets":    &corev1.Secret{},
	"pods":       &corev1.Pod{},
}

// clientGoSide is client-go's SharedIndexInformer, one per resource. A
// panicking handler would end the process (HandleCrash panics again), so
// this test binary sets utilruntime.ReallyCrash = false (TestMain): the
// listener then logs the panic, skips that notification and sleeps a
// second before the next one. recoveredByClientGo counts the panics
// HandleCrash swallowed, through utilruntime.PanicHandlers.
type clientGoSide struct {
	// recoveredBefore is the process's count when this side started: the
	// count is process-wide, and earlier runs add to it.
	recoveredBefore int64
	mu              sync.Mutex
	informers       map[string]cache.SharedIndexInformer
	regs            []cache.ResourceEventHandlerRegistration
}

var recoveredByClientGo atomic.Int64

func (*clientGoSide) Name() string { return "client-go" }

func (s *clientGoSide) Run(ctx context.Context, cfg *rest.Config, ns string, views map[string][]*chaos.View) {
	client := kubernetes.NewForConfigOrDie(cfg)
	s.mu.Lock()
	s.recoveredBefore = recoveredByClientGo.Load()
	s.informers = map[string]cache.SharedIndexInformer{}
	for res, example := range examples {
		lw := cache.NewFilteredListWatchFromClient(client.CoreV1().RESTClient(), res, ns, func(*metav1.ListOptions) {})
		inf := cache.NewSharedIndexInformer(lw, example, 0, cache.Indexers{})
		for _, v := range views[res] {
			reg, err := inf.AddEventHandler(v)
			if err != nil {
				panic(err)
			}
			s.regs = append(s.regs, reg)
		}
		s.informers[res] = inf
	}
	infs := s.informers
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, inf := range infs {
		wg.Go(func() { inf.RunWithContext(ctx) })
	}
	wg.Wait()
}

func (s *clientGoSide) HasSynced() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.informers) < len(examples) {
		return false
	}
	for _, inf := range s.informers {
		if !inf.HasSynced() {
			return false
		}
	}
	for _, reg := range s.regs {
		if !reg.HasSynced() {
			return false
		}
	}
	return true
}

func (s *clientGoSide) Caches() map[string]map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]map[string]string{}
	for res, inf := range s.informers {
		out[res] = chaos.CacheContent(inf.GetStore().List(), reflect.TypeOf(examples[res]))
	}
	return out
}

func (*clientGoSide) Tombstone(obj any) (string, any, bool) {
	d, ok := obj.(cache.DeletedFinalStateUnknown)
	return d.Key, d.Obj, ok
}

func (s *clientGoSide) Recovered() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return int(recoveredByClientGo.Load() - s.recoveredBefore)
}

// ourSide is stage 06's SharedIndexInformer, one per resource, with
// OnHandlerPanic set: the "log and keep going" option client-go does not
// have (the difference this run relies on; see the package doc of stage
// 06). It skips the notification and goes on at once, without client-go's
// one-second pause.
type ourSide struct {
	mu        sync.Mutex
	informers map[string]informer.SharedIndexInformer
	regs      []informer.ResourceEventHandlerRegistration
	recovered atomic.Int64
	// mutate, if set, changes the informers before they run: a test that
	// breaks them on purpose.
	mutate func(res string, inf informer.SharedIndexInformer)
}

func (*ourSide) Name() string { return "ours" }

func (s *ourSide) Run(ctx context.Context, cfg *rest.Config, ns string, views map[string][]*chaos.View) {
	client := kubernetes.NewForConfigOrDie(cfg)
	s.mu.Lock()
	s.informers = map[string]informer.SharedIndexInformer{}
	for res, example := range examples {
		lw := listwatch.NewFilteredListWatchFromClient(client.CoreV1().RESTClient(), res, ns, func(*metav1.ListOptions) {})
		inf := informer.NewSharedIndexInformerWithOptions(lw, example, informer.SharedIndexInformerOptions{
			Indexers:       informer.Indexers{},
			OnHandlerPanic: func(informer.HandlerPanic) { s.recovered.Add(1) },
		})
		for _, v := range views[res] {
			reg, err := inf.AddEventHandler(v)
			if err != nil {
				panic(err)
			}
			s.regs = append(s.regs, reg)
		}
		if s.mutate != nil {
			s.mutate(res, inf)
		}
		s.informers[res] = inf
	}
	infs := s.informers
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, inf := range infs {
		wg.Go(func() { inf.RunWithContext(ctx) })
	}
	wg.Wait()
}

func (s *ourSide) HasSynced() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.informers) < len(examples) {
		return false
	}
	for _, inf := range s.informers {
		if !inf.HasSynced() {
			return false
		}
	}
	for _, reg := range s.regs {
		if !reg.HasSynced() {
			return false
		}
	}
	return true
}

func (s *ourSide) Caches() map[string]map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]map[string]string{}
	for res, inf := range s.informers {
		out[res] = chaos.CacheContent(inf.GetStore().List(), reflect.TypeOf(examples[res]))
	}
	return out
}

func (*ourSide) Tombstone(obj any) (string, any, bool) {
	d, ok := obj.(informer.DeletedFinalStateUnknown)
	return d.Key, d.Obj, ok
}

func (s *ourSide) Recovered() int { return int(s.recovered.Load()) }
