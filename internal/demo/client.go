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
	return e.TimelineClientFor(e.RESTConfig(), also)
}

// TimelineClientFor is TimelineClient on another configuration: stage 06's
// --chaos goes through internal/faultproxy.
func (e *Env) TimelineClientFor(cfg *rest.Config, also func(reqlog.Request)) (kubernetes.Interface, error) {
	return kubernetes.NewForConfig(e.timelineConfig(cfg, also))
}

// TimelineRESTConfig is the configuration TimelineClient builds its
// clientset from, for a client of another kind (a dynamic client) whose
// requests should be printed the same way.
func (e *Env) TimelineRESTConfig(also func(reqlog.Request)) *rest.Config {
	return e.timelineConfig(e.RESTConfig(), also)
}

// timelineConfig wraps cfg's transport so each request is a timeline row.
func (e *Env) timelineConfig(cfg *rest.Config, also func(reqlog.Request)) *rest.Config {
	rec := &reqlog.Recorder{OnRequest: func(r reqlog.Request) {
		e.Timeline.Event("http", r.Method, r.Path, r.QueryString())
		if also != nil {
			also(r)
		}
	}}
	return rec.Wrap(cfg)
}
