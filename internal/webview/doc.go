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
// and Chinese, with the docs' terms, and so do the step titles (a step
// row's TitleText) and the buttons' answers (an Action's lang.Text): the
// page's language toggle switches them all. Its buttons call Actions the
// demo registers (Handle): the demo, not the page, decides what a button
// does, and runs one action at a time.
//
// # Who may press the buttons
//
// The buttons change the cluster (on stage 08 with --kubeconfig, a real
// one), so three fences keep them to the learner's own page:
//   - the server listens on loopback only (Start refuses any other
//     address): nobody else on the room's network reaches it;
//   - a press is a POST with an X-Webview header, which the page's script
//     sets and a form on another site cannot: such a form can still post
//     to 127.0.0.1 through the learner's browser, but not with the header;
//   - every request, on every route (the page, its files, /events, the
//     buttons), must name the page's own address in its Host header: the
//     address URL prints, or localhost on the same port (host.go).
//     Anything else gets 403 with a sentence saying where the page is.
//     This stops DNS rebinding: a site that re-binds its own domain name
//     to 127.0.0.1 after the learner opened it is, for the browser, the
//     same origin as this server, so its script could read the stream and
//     set the header; but its requests carry its own name as their Host.
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
