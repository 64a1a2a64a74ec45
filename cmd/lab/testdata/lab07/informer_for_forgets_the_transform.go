//go:build ignore

// A plausible wrong answer to lab 07: InformerFor shares by type and takes
// the type's resync period, but never sets the factory's transform
// (WithTransform) on the informer it builds, so the cache keeps what the
// transform was there to drop.

package factory

func (f *sharedInformerFactory) InformerFor(obj runtime.Object, newFunc internalinterfaces.NewInformerFunc) informer.SharedIndexInformer {
	if obj == nil {
		err := errors.New("factory: InformerFor was given a nil object: it has no type to share an informer by")
		utilruntime.HandleError(err)
		return failingInformer(err)
	}

	f.lock.Lock()
	defer f.lock.Unlock()

	informerType := reflect.TypeOf(obj)
	if inf, exists := f.informers[informerType]; exists {
		return inf
	}
	resyncPeriod, exists := f.customResync[informerType]
	if !exists {
		resyncPeriod = f.defaultResync
	}
	inf, err := build(newFunc, f.client, resyncPeriod, informerType)
	if err != nil {
		utilruntime.HandleError(err)
		inf = failingInformer(err)
	}
	f.informers[informerType] = inf
	return inf
}
