package demo

import (
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"informer-from-scratch/internal/reqlog"
)

// TimelineClient returns a clientset of its own whose every request is
// printed on the timeline as an "http" row (method, path and query), so a
// learner sees exactly what the layer under study sends. also, if not nil,
// hears of each request too (a demo may count them).
func (e *Env) TimelineClient(also func(reqlog.Request)) (kubernetes.Interface, error) {
	return kubernetes.NewForConfig(e.TimelineRESTConfig(also))
}

// TimelineRESTConfig is the configuration TimelineClient builds its
// clientset from, for a client of another kind (a dynamic client) whose
// requests should be printed the same way.
func (e *Env) TimelineRESTConfig(also func(reqlog.Request)) *rest.Config {
	rec := &reqlog.Recorder{OnRequest: func(r reqlog.Request) {
		e.Timeline.Event("http", r.Method, r.Path, r.QueryString())
		if also != nil {
			also(r)
		}
	}}
	return rec.Wrap(e.RESTConfig())
}
