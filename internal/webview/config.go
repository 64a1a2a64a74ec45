package webview

// Label is a text in both languages of the docs.
type Label struct {
	En string `json:"en"`
	Zh string `json:"zh"`
}

// Lane is one column of the page: a place a token can be. A lane with
// PerListener set is drawn once per event handler registration (a
// listener's ring buffer, a handler), its ID then suffixed with ":" and the
// handler's name.
type Lane struct {
	ID          string `json:"id"`
	Label       Label  `json:"label"`
	Hint        Label  `json:"hint"`
	PerListener bool   `json:"perListener,omitempty"`
}

// Counter is one number (or word) the page shows above the lanes; its value
// comes with every message, under the same ID.
type Counter struct {
	ID    string `json:"id"`
	Label Label  `json:"label"`
}

// Button is one action the page offers. Pressing it calls the Action of the
// same ID (Server.Handle) on the demo's side.
type Button struct {
	ID    string `json:"id"`
	Label Label  `json:"label"`
	Hint  Label  `json:"hint"`
}

// Config is what a demo shows: its title, its lanes in the order an object
// passes them, its counters and its buttons, and which pipeline's rows it
// reads.
type Config struct {
	// Pipeline says which rules fold the demo's rows into tokens:
	// PipelineInformer (stage 06's layers) or PipelineController (stage
	// 08's controller). The two read rows of the same layer name ("handler")
	// differently.
	Pipeline string    `json:"pipeline,omitempty"`
	Title    Label     `json:"title"`
	Lanes    []Lane    `json:"lanes"`
	Counters []Counter `json:"counters"`
	Buttons  []Button  `json:"buttons"`
}

// The pipelines a Config can show.
const (
	// PipelineInformer is stage 06's: one informer, traced layer by layer
	// (rules.go). It is the default.
	PipelineInformer = ""
	// PipelineController is stage 08's: a controller's keys, from its
	// handlers through the workqueue to its workers' writes
	// (workqueue_rules.go).
	PipelineController = "controller"
)

// Lane IDs of an informer's pipeline, in order (InformerLanes).
const (
	LaneAPIServer = "apiserver"
	LaneReflector = "reflector"
	LaneQueue     = "queue"
	LaneIndexer   = "indexer"
	LaneProcessor = "processor"
	LaneListener  = "listener"
	LaneHandler   = "handler"
)

// InformerLanes are stage 06's lanes: API server → reflector → queue →
// indexer → processor → one ring buffer per listener → its handler. Stage 08
// appends its own after them.
func InformerLanes() []Lane {
	return []Lane{
		{ID: LaneAPIServer, Label: Label{"API server", "API Server"},
			Hint: Label{"writes, LIST and WATCH requests, watch errors", "写入、LIST 与 WATCH 请求、watch 错误"}},
		{ID: LaneReflector, Label: Label{"Reflector", "Reflector"},
			Hint: Label{"stage 02: turns events into queue calls", "第 02 阶段：把事件变成对队列的调用"}},
		{ID: LaneQueue, Label: Label{"Queue (RealFIFO)", "队列（RealFIFO）"},
			Hint: Label{"stage 03: waiting for processLoop to pop", "第 03 阶段：等 processLoop 来 Pop"}},
		{ID: LaneIndexer, Label: Label{"Indexer (cache)", "Indexer（缓存）"},
			Hint: Label{"stage 04: written first", "第 04 阶段：先写缓存"}},
		{ID: LaneProcessor, Label: Label{"Processor", "processor"},
			Hint: Label{"stage 05: distributes to every listener", "第 05 阶段：分发给每个 listener"}},
		{ID: LaneListener, Label: Label{"Listener ring buffer", "listener 环形缓冲区"}, PerListener: true,
			Hint: Label{"one per handler: waiting for the handler", "每个 handler 一个：等 handler 来取"}},
		{ID: LaneHandler, Label: Label{"Handler", "handler"}, PerListener: true,
			Hint: Label{"its last call (in progress, or returned)", "它最近的一次调用（进行中或已返回）"}},
	}
}

// Counter IDs of an informer's pipeline (InformerCounters).
const (
	CounterResourceVersion = "rv"
	CounterQueue           = "queue"
	CounterCache           = "cache"
	CounterRelists         = "relists"
	CounterWatch           = "watch"
	CounterSynced          = "synced"
)

// InformerCounters are stage 06's counters. Each registration's HasSynced
// and ring depth come with the listeners, not as counters.
func InformerCounters() []Counter {
	return []Counter{
		{ID: CounterResourceVersion, Label: Label{"last resourceVersion", "最新 resourceVersion"}},
		{ID: CounterQueue, Label: Label{"queue depth", "队列深度"}},
		{ID: CounterCache, Label: Label{"cache size", "缓存大小"}},
		{ID: CounterRelists, Label: Label{"relists", "重新 list 次数"}},
		{ID: CounterWatch, Label: Label{"watch", "watch"}},
		{ID: CounterSynced, Label: Label{"informer HasSynced", "Informer HasSynced"}},
	}
}
