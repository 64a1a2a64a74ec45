package informer_test

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/tools/cache"
	fcache "k8s.io/client-go/tools/cache/testing"
	"k8s.io/utils/ptr"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/internal/docblock"
)

// The resync arithmetic of chapter 05 ("Resync is not relist"), worked: a
// table of handlers, each asking for a resync period before or after Run, on
// informers whose default is 0 or 30 s, and what each one gets. The table is
// resyncTable below, written from the rules (client-go v0.37.2's
// sharedIndexInformer.AddEventHandlerWithOptions, determineResyncPeriod,
// minimumResyncPeriod, sharedProcessor.resyncCheckPeriodChanged and
// shouldResync, processorListener.shouldResync and determineNextResync,
// and the reflector's resync timer, Reflector.startResync), not copied from
// a run. TestResyncTable plays it on client-go's informer and on ours, with
// the same handlers added in the same order, for four minutes of fake time
// (testing/synctest), records when each handler gets a sync notification
// (OnUpdate with the same resourceVersion on both sides: there is one
// object and no change), and holds both to every row. Then it prints the
// table into docs/en/05-processor.md and docs/zh/05-processor.md, where
// docblock keeps it (make docs-from-runs rewrites it).

// resyncAfterRun is when the handlers added after Run are added: after the
// sync, and between two checks even at a 1 s check period, so a check and
// the add never fall on the same instant (their order would not be fixed).
const resyncAfterRun = 10500 * time.Millisecond

// resyncHorizon is how long each informer runs: four minutes, less half a
// second, so the last check (at 4 minutes) is not raced by the stop.
const resyncHorizon = 4*time.Minute - 500*time.Millisecond

// resyncRow is one handler of the table.
type resyncRow struct {
	// asks is the period the handler asks for: nil is AddEventHandler (the
	// informer's default), else AddEventHandlerWithResyncPeriod.
	asks *time.Duration
	// afterRun adds it at resyncAfterRun, else before Run.
	afterRun bool

	// What the rules give, and both runs must show:
	// check is the informer's resync check period once this handler is
	// added; period is the handler's own (its listener's resyncPeriod) once
	// every handler is added: after any recomputation.
	check, period time.Duration
	// first and every are its sync notifications: the first at first (an
	// offset from Run), then one every every; both 0 for none.
	first, every time.Duration
}

// resyncInformer is one informer of the table and its handlers, in the
// order they are added.
type resyncInformer struct {
	resync time.Duration
	rows   []resyncRow
}

// resyncTable is the table, row by row. The reasons, by row number:
//
//  1. to 4.: an informer with resync 0 has check period 0; no request
//     lowers it (none is below 0), and determineResyncPeriod gives every
//     handler 0 when the check period is 0.
//  5. the default: the informer's 30 s.
//  7. 60 s is a multiple of the check period: due at 60, checked at 60.
//  8. 45 s is not: due at 45, first checked at 60, due again at 105,
//     checked at 120: every 60 s, though its period is 45 s.
//  9. and 10.: after Run the check period is fixed, so 500 ms (raised to
//     1 s first) and 5 s are raised to it; due at 10.5 + 30 = 40.5, so
//     first at the check at 60.
//  11. due at 70.5: first at 90, then 150, 210.
//  12. and 13. are recomputed when 14. lowers the check period to 5 s and
//     when 16. lowers it to 1 s: determineResyncPeriod gives each its own
//     request back, as it does every handler registered before Run (a
//     request below the check period would have lowered it).
//  17. after Run, 5 s is not below the 1 s check period: kept; due at 15.5,
//     checked at 16, then every 5 s.
var resyncTable = []resyncInformer{
	{resync: 0, rows: []resyncRow{
		{asks: nil},
		{asks: ptr.To(500 * time.Millisecond)},
		{asks: ptr.To(60 * time.Second)},
		{asks: ptr.To(5 * time.Second), afterRun: true},
	}},
	{resync: 30 * time.Second, rows: []resyncRow{
		{asks: nil, check: 30 * time.Second, period: 30 * time.Second, first: 30 * time.Second, every: 30 * time.Second},
		{asks: ptr.To(time.Duration(0)), check: 30 * time.Second},
		{asks: ptr.To(60 * time.Second), check: 30 * time.Second, period: 60 * time.Second, first: 60 * time.Second, every: 60 * time.Second},
		{asks: ptr.To(45 * time.Second), check: 30 * time.Second, period: 45 * time.Second, first: 60 * time.Second, every: 60 * time.Second},
		{asks: ptr.To(500 * time.Millisecond), afterRun: true, check: 30 * time.Second, period: 30 * time.Second, first: 60 * time.Second, every: 30 * time.Second},
		{asks: ptr.To(5 * time.Second), afterRun: true, check: 30 * time.Second, period: 30 * time.Second, first: 60 * time.Second, every: 30 * time.Second},
		{asks: ptr.To(60 * time.Second), afterRun: true, check: 30 * time.Second, period: 60 * time.Second, first: 90 * time.Second, every: 60 * time.Second},
	}},
	{resync: 30 * time.Second, rows: []resyncRow{
		{asks: nil, check: 30 * time.Second, period: 30 * time.Second, first: 30 * time.Second, every: 30 * time.Second},
		{asks: ptr.To(60 * time.Second), check: 30 * time.Second, period: 60 * time.Second, first: 60 * time.Second, every: 60 * time.Second},
		{asks: ptr.To(5 * time.Second), check: 5 * time.Second, period: 5 * time.Second, first: 5 * time.Second, every: 5 * time.Second},
		{asks: ptr.To(45 * time.Second), check: 5 * time.Second, period: 45 * time.Second, first: 45 * time.Second, every: 45 * time.Second},
		{asks: ptr.To(500 * time.Millisecond), check: 1 * time.Second, period: 1 * time.Second, first: 1 * time.Second, every: 1 * time.Second},
		{asks: ptr.To(5 * time.Second), afterRun: true, check: 1 * time.Second, period: 5 * time.Second, first: 16 * time.Second, every: 5 * time.Second},
	}},
}

// resyncSeen is what a run shows of one handler, in the table's terms.
type resyncSeen struct {
	Check, Period, First, Every time.Duration
	// Irregular lists the sync notifications when they do not come at
	// First, then every Every, up to the horizon.
	Irregular []time.Duration
}

func (r resyncRow) want() resyncSeen {
	return resyncSeen{Check: r.check, Period: r.period, First: r.first, Every: r.every}
}

func TestResyncTable(t *testing.T) {
	sides := []struct {
		name string
		new  func(lw *matrixSource, resync time.Duration) resyncSide
	}{
		{"client-go", func(lw *matrixSource, resync time.Duration) resyncSide {
			return resyncSide{inf: cache.NewSharedIndexInformer(lw, &corev1.Pod{}, resync, cache.Indexers{})}
		}},
		{"ours", func(lw *matrixSource, resync time.Duration) resyncSide {
			return resyncSide{inf: informer.NewSharedIndexInformer(lw, &corev1.Pod{}, resync, informer.Indexers{})}
		}},
	}
	n := 0
	for i, inf := range resyncTable {
		first := n + 1
		n += len(inf.rows)
		t.Run(fmt.Sprintf("rows %d to %d", first, n), func(t *testing.T) {
			for _, side := range sides {
				got := playResync(t, inf, func(lw *matrixSource) resyncSide { return side.new(lw, inf.resync) })
				for j, row := range inf.rows {
					if diff := cmp.Diff(row.want(), got[j]); diff != "" {
						t.Errorf("informer %d (resync %v), row %d (asks %s, %s): on %s, the handler got other than the table says (-table +%s):\n%s",
							i+1, inf.resync, first+j, asksText(row.asks), addedText("en", row.afterRun), side.name, side.name, diff)
					}
				}
			}
		})
	}
	for _, lang := range []string{"en", "zh"} {
		docblock.Check(t, "docs/"+lang+"/05-processor.md", resyncTableMarker, renderResyncTable(lang))
	}
}

var resyncTableMarker = docblock.Marker("06-sharedinformer", "TestResyncTable", "the resync table")

// resyncSide is one library's informer, seen through what both have: the
// methods of a SharedInformer, and two fields of the same name (read by
// reflection: neither library exports them).
type resyncSide struct {
	inf any // a cache.SharedIndexInformer or an informer.SharedIndexInformer
}

// playResync runs one informer of the table in a synctest bubble and
// returns what each handler got.
func playResync(t *testing.T, inf resyncInformer, newSide func(lw *matrixSource) resyncSide) []resyncSeen {
	t.Helper()
	seen := make([]resyncSeen, len(inf.rows))
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		src := fcache.NewFakeControllerSource()
		src.Add(matrixPod("web"))
		side := newSide(newMatrixSource(src))
		recs := make([]*syncTimes, len(inf.rows))
		regs := make([]any, len(inf.rows))
		add := func(i int) {
			recs[i] = &syncTimes{start: start}
			reg, err := addWithResync(side.inf, recs[i], inf.rows[i].asks)
			if err != nil {
				t.Fatalf("row %d: %v", i+1, err)
			}
			regs[i] = reg
			seen[i].Check = unexportedDuration(t, side.inf, "resyncCheckPeriod")
		}
		for i, row := range inf.rows {
			if !row.afterRun {
				add(i)
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { side.inf.(interface{ RunWithContext(context.Context) }).RunWithContext(ctx) })
		time.Sleep(resyncAfterRun)
		for i, row := range inf.rows {
			if row.afterRun {
				add(i)
			}
		}
		time.Sleep(resyncHorizon - resyncAfterRun)
		cancel()
		wg.Wait()
		src.Shutdown()
		for i := range inf.rows {
			seen[i].Period = unexportedDuration(t, regs[i], "resyncPeriod")
			seen[i].First, seen[i].Every, seen[i].Irregular = recs[i].summary()
		}
	})
	return seen
}

// addWithResync adds h to either library's informer, as the row asks.
func addWithResync(inf any, h *syncTimes, asks *time.Duration) (any, error) {
	switch inf := inf.(type) {
	case cache.SharedIndexInformer:
		if asks == nil {
			return inf.AddEventHandler(h)
		}
		return inf.AddEventHandlerWithResyncPeriod(h, *asks)
	case informer.SharedIndexInformer:
		if asks == nil {
			return inf.AddEventHandler(h)
		}
		return inf.AddEventHandlerWithResyncPeriod(h, *asks)
	}
	return nil, fmt.Errorf("%T is neither library's informer", inf)
}

// unexportedDuration reads the time.Duration field name of the struct v
// points to: client-go's sharedIndexInformer.resyncCheckPeriod and
// processorListener.resyncPeriod, and ours, which have the same names.
// Read, never written; and only where no other goroutine writes it (the
// check period once the test's own add returned, a listener's period once
// every handler was added).
func unexportedDuration(t *testing.T, v any, name string) time.Duration {
	t.Helper()
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Interface || rv.Kind() == reflect.Pointer {
		rv = rv.Elem()
	}
	f := rv.FieldByName(name)
	if !f.IsValid() || f.Type() != reflect.TypeFor[time.Duration]() {
		t.Fatalf("%T has no time.Duration field %s any more: the test reads it to show the period the arithmetic gives", v, name)
	}
	return time.Duration(f.Int())
}

// syncTimes is a handler that records when it gets a sync notification: an
// OnUpdate whose old and new objects have the same resourceVersion.
type syncTimes struct {
	start time.Time
	mu    sync.Mutex
	at    []time.Duration
}

func (h *syncTimes) OnAdd(any, bool) {}
func (h *syncTimes) OnDelete(any)    {}

func (h *syncTimes) OnUpdate(oldObj, newObj any) {
	o, _ := meta.Accessor(oldObj)
	n, _ := meta.Accessor(newObj)
	if o == nil || n == nil || o.GetResourceVersion() != n.GetResourceVersion() {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.at = append(h.at, time.Since(h.start))
}

// summary is the sync notifications as the table writes them: the first,
// and the interval after it, when every later one follows at that interval
// up to the horizon; otherwise all of them, as irregular.
func (h *syncTimes) summary() (first, every time.Duration, irregular []time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.at) == 0 {
		return 0, 0, nil
	}
	first = h.at[0]
	if len(h.at) > 1 {
		every = h.at[1] - h.at[0]
	}
	regular := every > 0
	for k, at := range h.at {
		if at != first+time.Duration(k)*every {
			regular = false
		}
	}
	if regular && h.at[len(h.at)-1]+every <= resyncHorizon {
		regular = false // one is missing at the end
	}
	if !regular {
		return first, every, h.at
	}
	return first, every, nil
}

// renderResyncTable is the table as chapter 05 shows it in lang: a row per
// handler, numbered as resyncTable's comment numbers them, its informers
// named A, B and C. A period in bold
// is not what the handler asked for; notifications in bold come less often
// than the period.
func renderResyncTable(lang string) string {
	header := map[string]string{
		"en": "| # | informer: its resync | the handler asks | added | check period, once added | its period | its sync notifications |\n",
		"zh": "| # | informer：它的 resync | handler 要求 | 何时加入 | 加入后的检查周期 | 它的周期 | 它收到的 sync 通知 |\n",
	}[lang]
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("| ---: | --- | --- | --- | --- | --- | --- |\n")
	n := 0
	for i, inf := range resyncTable {
		name := string(rune('A'+i)) + ": " + durationText(inf.resync)
		for _, row := range inf.rows {
			n++
			asked := inf.resync
			asks := map[string]string{"en": "default (" + durationText(inf.resync) + ")", "zh": "默认（" + durationText(inf.resync) + "）"}[lang]
			if row.asks != nil {
				asked, asks = *row.asks, durationText(*row.asks)
			}
			period := durationText(row.period)
			if row.period != asked {
				period = "**" + period + "**"
			}
			fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s | %s |\n",
				n, name, asks, addedText(lang, row.afterRun), durationText(row.check), period, syncsText(lang, row))
		}
	}
	return b.String()
}

func syncsText(lang string, row resyncRow) string {
	if row.every == 0 {
		return map[string]string{"en": "none", "zh": "没有"}[lang]
	}
	every := durationText(row.every)
	if row.every != row.period {
		every = "**" + every + "**"
	}
	if lang == "zh" {
		return "从 " + durationText(row.first) + " 起，每 " + every + " 一次"
	}
	return "every " + every + " from " + durationText(row.first)
}

func addedText(lang string, afterRun bool) string {
	switch {
	case lang == "zh" && afterRun:
		return "`Run` 之后（" + durationText(resyncAfterRun) + " 时）"
	case lang == "zh":
		return "`Run` 之前"
	case afterRun:
		return "after `Run`, at " + durationText(resyncAfterRun)
	}
	return "before `Run`"
}

func asksText(asks *time.Duration) string {
	if asks == nil {
		return "the default"
	}
	return durationText(*asks)
}

// durationText writes a period as the chapters do: "0", "500 ms", "30 s",
// "10.5 s".
func durationText(v time.Duration) string {
	switch {
	case v == 0:
		return "0"
	case v < time.Second:
		return strconv.FormatInt(v.Milliseconds(), 10) + " ms"
	}
	return strconv.FormatFloat(v.Seconds(), 'f', -1, 64) + " s"
}
