// Package webview is the browser view of a demo: one page, served on
// loopback while the demo runs, that draws the demo's pipeline (stage 06's
// informer, stage 08's controller) as lanes and every change as a token
// moving from lane to lane, as the layers really handle it.
//
// It is fed by the demo's timeline and nothing else. Start subscribes to the
// timeline (timeline.Subscribe); every row the terminal prints becomes one
// Message of the stream, which the page reads as Server-Sent Events
// (/events). A model (model.go) folds the rows, in print order, into tokens
// and counters, and each Message carries the row, the tokens it moved and
// the counters after it, so the page and the terminal cannot disagree: the
// page draws exactly the rows the terminal shows, at the pace the learner
// chooses (pause, step, slow motion), and a test can check the stream
// without a browser.
//
// The rules that move tokens come in two pipelines (Config.Pipeline), one
// per kind of demo, because their rows share layer names ("handler") but
// not meanings:
//   - PipelineInformer, stage 06's (rules.go): the layers of stage 06's
//     Observer (reflector, queue, indexer, processor, handler) and the
//     demo's own rows (demo, http, watch, synced). A token is one change of
//     one object, copied to every listener's ring.
//   - PipelineController, stage 08's (workqueue_rules.go): the layers of
//     the controller's Steps (handler, workqueue, worker, lister, write,
//     controller) and the demo's (demo, standin). A token is one mark of a
//     key in the workqueue: an Add makes one, joins the one already queued,
//     or waits as dirty until the worker holding the key calls Done, as
//     client-go's queue does; a failed reconcile's token goes back to the
//     queue and waits out its rate-limited delay there. The informers are
//     one lane: stage 08 prints no row from inside them.
//
// The page (static/) is plain HTML, CSS, JavaScript and SVG, embedded in
// the demo's binary: no build step, no library. Its labels come in English
// and Chinese, with the docs' terms. Its buttons call Actions the demo
// registers (Handle): the demo, not the page, decides what a button does,
// and runs one action at a time.
//
// # Adding a pipeline
//
// A demo with rows of its own adds lanes, counters and buttons to its
// Config, and a pipeline of rules (one per row layer, in a file of its
// own, joined to the pipelines table of server.go): each rule finds a
// token (model.find), moves it on (model.move), makes one (model.born) or
// ends it (model.gone); the row's fields (timeline.EventWith) carry the
// facts a rule would otherwise parse out of the row's detail. The page needs no change: it draws
// whatever lanes, counters and buttons the Config lists, in that order.
package webview
