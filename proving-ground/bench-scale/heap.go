package main

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"syscall"
	"time"
)

// Why one process per measurement, and not runtime/metrics with a GC
// between two informers in one process: the peak of a sync is mostly
// garbage (decode buffers, the list before it is split, copies), and when
// that garbage is collected, and so how high the heap climbs, depends on
// the heap the GC found live at its last cycle. In one process the second
// informer measured would climb against a heap goal set by the first's
// leftovers and by whatever the runtime kept for reuse; in a fresh process
// every informer starts from the same few megabytes, with the same GOGC,
// and the process's peak RSS (VmHWM) is a second, independent reading of
// the same peak. The price is a process start per measurement, outside the
// timed part.

// heapSampler reads the bytes of live and not-yet-collected heap objects
// every millisecond while a sync runs and keeps the highest. A GC cycle is
// at least a few milliseconds of allocation apart from the next at these
// heap sizes, so a millisecond's sampling sees each peak within a
// millisecond of allocation.
type heapSampler struct {
	stop chan struct{}
	done sync.WaitGroup
	peak uint64
}

var heapMetric = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/allocs:bytes"}}

// heapNow returns the bytes in heap objects now and the bytes allocated
// since the process started.
func heapNow() (objects, allocated uint64) {
	s := make([]metrics.Sample, len(heapMetric))
	copy(s, heapMetric)
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

func startHeapSampler() *heapSampler {
	h := &heapSampler{stop: make(chan struct{})}
	h.done.Add(1)
	go func() {
		defer h.done.Done()
		s := []metrics.Sample{{Name: heapMetric[0].Name}}
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			h.peak = max(h.peak, s[0].Value.Uint64())
			select {
			case <-h.stop:
				return
			case <-t.C:
			}
		}
	}()
	return h
}

// Stop ends the sampling and returns the highest reading.
func (h *heapSampler) Stop() uint64 {
	close(h.stop)
	h.done.Wait()
	return h.peak
}

// settledHeap is the heap after two collections: what is still reachable.
func settledHeap() uint64 {
	runtime.GC()
	runtime.GC()
	objects, _ := heapNow()
	return objects
}

// peakRSS is the process's high-water mark of resident memory, in bytes,
// from getrusage(2) (on Linux the same number as /proc's VmHWM); 0 where
// the system does not say. ru_maxrss counts KiB on Linux, bytes on macOS.
func peakRSS() uint64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil || ru.Maxrss <= 0 {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return uint64(ru.Maxrss)
	}
	return uint64(ru.Maxrss) * 1024
}
