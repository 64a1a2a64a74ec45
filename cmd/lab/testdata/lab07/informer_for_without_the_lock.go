//go:build ignore

// A plausible wrong answer to lab 07: InformerFor without the factory's
// lock. Called from one goroutine it is right; when two parts of a program
// ask at once, both may find no informer, build one each, and write the map
// together (a data race; sometimes the runtime's "concurrent map writes").
// Only the race detector sees it reliably:
//
//lab:flags -race

package factory

func (f *sharedInformerFactory) InformerFor(obj runtime.Object, newFunc internalinterfaces.NewInformerFunc) informer.SharedIndexInformer {
	if obj == nil {
		err := errors.New("factory: InformerFor was given a nil object: it has no type to share an informer by")
		utilruntime.HandleError(err)
		return failingInformer(err)
	}

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
	if f.transform != nil {
		if err := inf.SetTransform(f.transform); err != nil {
			utilruntime.HandleError(fmt.Errorf("factory: setting the transform on the %v informer: %w", informerType, err))
		}
	}
	f.informers[informerType] = inf
	return inf
}
