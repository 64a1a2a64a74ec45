// Mirrors k8s.io/client-go v0.37.2 tools/cache/reflector.go: ReflectorOptions,
// NewReflector, NewNamedReflector, NewReflectorWithOptions and the default
// watch timeouts and backoff.

package reflector

import (
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"runtime"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/clock"

	listwatch "informer-from-scratch/01-listwatch"
)

var (
	// Watch requests time out after a random duration in
	// [defaultMinWatchTimeout, 2×defaultMinWatchTimeout).
	defaultMinWatchTimeout = 5 * time.Minute
	defaultMaxWatchTimeout = 2 * defaultMinWatchTimeout

	// The backoff: 800ms, doubling, capped at 30s, each with up to 100%
	// jitter. The cap puts a failing reflector at one request every 30-60s.
	defaultBackoffInit   = 800 * time.Millisecond
	defaultBackoffMax    = 30 * time.Second
	defaultBackoffFactor = 2.0
	defaultBackoffJitter = 1.0
	// Every two minutes the backoff starts again from 800ms.
	defaultBackoffReset = 2 * time.Minute
)

// ReflectorOptions configures a Reflector. The zero value is client-go's
// defaults.
type ReflectorOptions struct {
	// Name is the reflector's name; by default the file:line that called
	// NewReflectorWithOptions.
	Name string
	// TypeDescription is for display; by default it is derived from the
	// expected type.
	TypeDescription string
	// ResyncPeriod is how often the store's Resync is called; 0 never.
	ResyncPeriod time.Duration
	// MinWatchTimeout raises the lower bound of the random watch timeout.
	// Values below 5 minutes are ignored, as in client-go: short watches
	// mean more reconnects for the control plane.
	MinWatchTimeout time.Duration
	// Clock lets tests control time; nil is the real clock.
	Clock clock.Clock
	// Backoff replaces the default backoff (800ms ×2 up to 30s, jitter 1).
	Backoff *wait.Backoff
	// UseWatchList chooses how the reflector gets the current state: true
	// opens one WatchList stream (sendInitialEvents=true), false sends a
	// LIST then a WATCH. nil means true, client-go's default since 1.35.
	// client-go reads this from its WatchListClient feature gate; here it is
	// an explicit choice so a program (and the demo) can pick either path.
	// Either way, a ListerWatcher whose client cannot stream (a fake
	// clientset, through listwatch.ToListWatcherWithWatchListSemantics)
	// gets LIST then WATCH, as in client-go.
	UseWatchList *bool
}

// NewReflector returns a reflector with a default name.
func NewReflector(lw listwatch.ListerWatcher, expectedType any, store ReflectorStore, resyncPeriod time.Duration) *Reflector {
	return NewReflectorWithOptions(lw, expectedType, store, ReflectorOptions{ResyncPeriod: resyncPeriod})
}

// NewNamedReflector returns a reflector with the given name.
func NewNamedReflector(name string, lw listwatch.ListerWatcher, expectedType any, store ReflectorStore, resyncPeriod time.Duration) *Reflector {
	return NewReflectorWithOptions(lw, expectedType, store, ReflectorOptions{Name: name, ResyncPeriod: resyncPeriod})
}

// NewReflectorWithOptions returns a reflector that keeps store up to date
// with what lw lists and watches. It promises to put only objects of the
// type of expectedType into the store (any type if expectedType is nil; for
// an *unstructured.Unstructured with apiVersion and kind set, only that
// kind).
func NewReflectorWithOptions(lw listwatch.ListerWatcher, expectedType any, store ReflectorStore, options ReflectorOptions) *Reflector {
	c := options.Clock
	if c == nil {
		c = clock.RealClock{}
	}
	minWatchTimeout, maxWatchTimeout := defaultMinWatchTimeout, defaultMaxWatchTimeout
	if options.MinWatchTimeout > defaultMinWatchTimeout {
		minWatchTimeout = options.MinWatchTimeout
		maxWatchTimeout = 2 * minWatchTimeout
	}
	if maxWatchTimeout < minWatchTimeout {
		// 2× a huge MinWatchTimeout overflowed: no randomization, as in
		// client-go.
		maxWatchTimeout = minWatchTimeout
	}
	backoff := options.Backoff
	if backoff == nil {
		backoff = &wait.Backoff{
			Duration: defaultBackoffInit,
			Cap:      defaultBackoffMax,
			Steps:    int(math.Ceil(float64(defaultBackoffMax) / float64(defaultBackoffInit))),
			Factor:   defaultBackoffFactor,
			Jitter:   defaultBackoffJitter,
		}
	}

	r := &Reflector{
		name:              options.Name,
		typeDescription:   options.TypeDescription,
		expectedType:      reflect.TypeOf(expectedType),
		expectedGVK:       expectedGVKOf(expectedType),
		store:             store,
		resyncPeriod:      options.ResyncPeriod,
		delayHandler:      newDelayWithReset(*backoff, c, defaultBackoffReset),
		minWatchTimeout:   minWatchTimeout,
		maxWatchTimeout:   maxWatchTimeout,
		clock:             c,
		useWatchList:      options.UseWatchList == nil || *options.UseWatchList,
		watchErrorHandler: DefaultWatchErrorHandler,
	}
	if lw != nil {
		r.listerWatcher = listwatch.ToListerWatcherWithContext(lw)
	}
	// A fake clientset cannot stream (see
	// listwatch.ToListWatcherWithWatchListSemantics): on one, WatchList would
	// wait for ever for the end of the initial events. client-go turns it off
	// here too, over its feature gate.
	if r.useWatchList && listwatch.DoesClientNotSupportWatchListSemantics(lw) {
		r.useWatchList = false
	}
	if r.name == "" {
		r.name = nameFromCallsite()
	}
	if r.typeDescription == "" {
		r.typeDescription = typeDescriptionOf(expectedType)
	}
	return r
}

// ownDir is this package's source directory, to skip its frames when naming
// a reflector after its caller.
var ownDir = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}()

// nameFromCallsite returns "dir/file.go:line" of the first caller outside
// this package. client-go does the same with naming.GetNameFromCallsite,
// which matches package paths; ours compares directories, because this
// package's tests and demo live below its directory.
func nameFromCallsite() string {
	for i := 1; i < 16; i++ {
		_, file, line, ok := runtime.Caller(i)
		if !ok {
			break
		}
		if filepath.Dir(file) == ownDir {
			continue
		}
		return fmt.Sprintf("%s:%d", filepath.Join(filepath.Base(filepath.Dir(file)), filepath.Base(file)), line)
	}
	return "????"
}
