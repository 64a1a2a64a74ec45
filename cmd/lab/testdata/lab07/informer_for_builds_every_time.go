//go:build ignore

// A plausible wrong answer to lab 07: InformerFor stores every informer it
// builds, but never looks for one already there, so each call builds a new
// one and takes the type's place in the map. Part A of a program keeps an
// informer that no Start ever runs; only the last caller's informer syncs.

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
	resyncPeriod, exists := f.customResync[informerType]
	if !exists {
		resyncPeriod = f.defaultResync
	}
	inf, err := build(newFunc, f.client, resyncPeriod, informerType)
	if err != nil {
		utilruntime.HandleError(err)
		inf = failingInformer(err)
	}
	if f.transform != nil {
		if err := inf.SetTransform(f.transform); err != nil {
			utilruntime.HandleError(fmt.Errorf("factory: setting the transform on the %v informer: %w", informerType, err))
		}
	}
	f.informers[informerType] = inf
	return inf
}
