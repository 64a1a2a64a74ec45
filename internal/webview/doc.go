// Package webview is the browser view of a demo: one page, served on
// loopback while the demo runs, that draws the informer's pipeline as lanes
// and every change as a token moving from lane to lane, as the layers
// really handle it.
//
// It is fed by the demo's timeline and nothing else. Start subscribes to the
// timeline (timeline.Subscribe); every row the terminal prints becomes one
// Message of the stream, which the page reads as Server-Sent Events
// (/events). A model (model.go) folds the rows, in print order, into tokens
// and counters, and each Message carries the row, the tokens it moved and
// the counters after it, so the page and the terminal cannot disagree: the
// page draws exactly the rows the terminal shows, at the pace the learner
// chooses (pause, step, slow motion), and a test can check the stream
// without a browser. The rules that move tokens are in rules.go, one per
// row layer: the layers of stage 06's Observer (reflector, queue, indexer,
// processor, handler) and the demo's own rows (demo, http, watch, synced).
//
// The page (static/) is plain HTML, CSS, JavaScript and SVG, embedded in
// the demo's binary: no build step, no library. Its labels come in English
// and Chinese, with the docs' terms. Its buttons call Actions the demo
// registers (Handle): the demo, not the page, decides what a button does,
// and runs one action at a time.
//
// # Adding stage 08's lanes
//
// Stage 08's demo adds, after the handlers, the workqueue (queued, dirty,
// processing), the workers and the API writes, and a "make a reconcile
// fail" button. That takes:
//   - lanes appended to InformerLanes() in its Config (say "queued", "dirty",
//     "processing", "worker", "write"), and counters if it wants them;
//   - a rule per layer its rows use (say "workqueue", "worker", "write"),
//     added to the rules table in a file of its own (workqueue_rules.go):
//     each finds the key's oldest token in the lane before (model.find) and
//     moves it on (model.move), or makes one (model.born) when the key has
//     none, as handlerRow does for a handler's call;
//   - a Button in its Config and a Handle call for it in the demo.
//
// The page needs no change: it draws whatever lanes, counters and buttons
// the Config lists, in that order.
package webview
