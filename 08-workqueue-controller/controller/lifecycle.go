// Ours: the guards around a Controller's life that sample-controller does
// without, out of run.go so that Run reads as sample-controller's: Run
// once, ShutDown of a Controller that never ran, and the event recorder Run
// makes and stops. Skip it on a first reading.

package controller

import (
	"errors"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/record"
)

// claim is Run's first step: a Controller runs once. A second Run returns
// an error and leaves the first one running as it was (it must not reach the
// queue the first one is using); Run after ShutDown is an error too.
func (c *Controller) claim() error {
	if !c.claimed.CompareAndSwap(false, true) {
		return errors.New("controller: a Controller runs once: Run was called twice, or after ShutDown")
	}
	return nil
}

// ShutDown releases a Controller that will not run: it shuts its
// workqueue down, which ends the delaying queue's goroutine NewController
// started (a sample-controller user would call the queue's ShutDown). Run
// afterwards returns an error. Once Run has begun, ShutDown does nothing:
// Run shuts the queue down itself when it returns, after its drain; to stop
// a running Controller, end Run's context. Calling it more than once is
// harmless.
func (c *Controller) ShutDown() {
	if c.claimed.CompareAndSwap(false, true) {
		c.workqueue.ShutDown()
	}
}

// startRecorder makes the default event recorder, unless Options gave one,
// and returns what stops it. (sample-controller makes its broadcaster in
// NewController and never stops it.)
func (c *Controller) startRecorder() (stop func()) {
	stop = func() {}
	if c.recorder == nil {
		broadcaster := record.NewBroadcaster()
		broadcaster.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: c.kubeclientset.CoreV1().Events("")})
		c.recorder = broadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: controllerAgentName})
		stop = broadcaster.Shutdown
	}
	c.recorder = wrap(c.wrapRecorder, c.recorder)
	return stop
}
