package webview_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/timeline"
	"informer-from-scratch/internal/webview"
	"informer-from-scratch/internal/webview/webviewtest"
)

// story prints what stage 06's demo prints for a pod created, a relist that
// finds a pod deleted while the watch was cut, and a handler added late, with
// the fields its Observer rows carry.
func story(tl *timeline.Timeline, srv *webview.Server) {
	obs := func(layer, op, key, rv, handler, detail string, extra ...string) {
		f := map[string]string{}
		for k, v := range map[string]string{webview.FieldKey: key, webview.FieldRV: rv, webview.FieldHandler: handler} {
			if v != "" {
				f[k] = v
			}
		}
		for i := 0; i+1 < len(extra); i += 2 {
			f[extra[i]] = extra[i+1]
		}
		object := key
		if key == "" {
			object = f[webview.FieldCount] + " pods"
		}
		tl.EventWith(f, layer, op, object, detail)
	}
	tl.Step(buildTitle)
	srv.Listener("audit")
	srv.Listener("metrics")
	tl.Event("http", "GET", "/api/v1/namespaces/ns/pods", "allowWatchBookmarks=true&sendInitialEvents=true&watch=true")
	obs("reflector", "Replace", "", "70", "", "rv=70", webview.FieldCount, "2")
	obs("queue", "ReplacedAll", "", "70", "", "rv=70 isInInitialList=true", webview.FieldCount, "2")
	obs("indexer", "Replace", "", "70", "", "rv=70", webview.FieldCount, "2")
	for _, pod := range []string{"ns/web-1", "ns/web-2"} {
		obs("processor", "add", pod, "68", "", "rv=68 isInInitialList=true")
		obs("handler", "OnAdd", pod, "68", "audit", "audit: rv=68")
		obs("handler", "OnAdd", pod, "68", "metrics", "metrics: rv=68")
	}
	tl.EventAbout(nil, "synced", "HasSynced", lang.T("the informer", "informer 本身"), "true")
	tl.Event("synced", "HasSynced", "audit", "true")

	tl.StepEN("Follow one pod through every layer")
	tl.Event("demo", "CREATE", "ns/web-4", "rv=71 managedFields=1")
	obs("reflector", "Add", "ns/web-4", "71", "", "rv=71")
	obs("queue", "Added", "ns/web-4", "71", "", "rv=71")
	obs("indexer", "Add", "ns/web-4", "71", "", "rv=71")
	obs("processor", "add", "ns/web-4", "71", "", "rv=71")
	obs("handler", "OnAdd", "ns/web-4", "71", "metrics", "metrics: rv=71")
	obs("handler", "OnAdd", "ns/web-4", "71", "audit", "audit: rv=71")

	tl.StepEN("A handler added while the informer runs")
	srv.Listener("late")
	for _, pod := range []string{"ns/web-1", "ns/web-2", "ns/web-4"} {
		obs("processor", "replay", pod, "68", "late", "late: rv=68 isInInitialList=true")
	}
	obs("handler", "OnAdd", "ns/web-1", "68", "late", "late: rv=68 isInInitialList=true")
	// The demo's own note about a handler (stage 06's STALLS): no call, no
	// listener of its own.
	tl.Event("handler", "STALLS", "ns/web-1", "late: stuck in OnAdd until the demo releases it")

	tl.StepEN("Lose the connection while a pod is deleted")
	tl.Event("demo", "CUT", "the informer's connection", "its watch ends")
	tl.Event("demo", "DELETE", "ns/web-2", "grace period 0")
	tl.Event("demo", "RESTORE", "the informer's connection", "the waiting watch request goes out")
	tl.Event("watch", "ERROR", "-", "410 Expired: the reflector will list again")
	obs("reflector", "Replace", "", "79", "", "rv=79", webview.FieldCount, "2")
	obs("queue", "ReplacedAll", "", "79", "", "rv=79", webview.FieldCount, "2")
	obs("indexer", "Replace", "", "79", "", "rv=79", webview.FieldCount, "2")
	obs("processor", "delete", "ns/web-2", "68", "", "rv=68 DeletedFinalStateUnknown")
	obs("handler", "OnDelete", "ns/web-2", "68", "late", "late: rv=68 DeletedFinalStateUnknown")
	tl.Event("demo", "DELETE", "ns/web-4", "grace period 0")
	obs("reflector", "Delete", "ns/web-4", "80", "", "rv=80")
	obs("queue", "Deleted", "ns/web-4", "80", "", "rv=80")
	obs("indexer", "Delete", "ns/web-4", "80", "", "rv=80")
	tl.NoteEN("Cache: [web-1@68]")
}

// buildTitle is the story's first step's title, in both languages: the
// page's heading follows its language toggle.
var buildTitle = lang.T("Build the informer, add two handlers, run it", "构建 informer，加两个 handler，运行")

// TestStreamMatchesTheTimeline runs the story and reads the stream as the
// page does: it must carry exactly the rows the terminal printed, in order,
// and move each token through the lanes the layers handled it in.
func TestStreamMatchesTheTimeline(t *testing.T) {
	var out strings.Builder
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tl := timeline.NewWithClock(&out, func() time.Time { now = now.Add(time.Millisecond); return now })
	srv, err := webview.Start("127.0.0.1:0", webview.Config{Lanes: webview.InformerLanes(), Counters: webview.InformerCounters()}, tl)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	tl.NoteEN("printed before the page connects: it comes in the snapshot")
	st := webviewtest.Connect(t, srv.URL())
	if got := strings.Join(st.Snapshot.Recent, ""); got != out.String() {
		t.Errorf("the snapshot's recent rows are not what was printed:\n%q\nwant\n%q", got, out.String())
	}
	printedBefore := out.Len()
	story(tl, srv)
	last := st.WaitFor(t, "the story's last row", func(m webview.Message) bool {
		return m.Row != nil && strings.HasPrefix(m.Row.Text, "   Cache:")
	})
	msgs := st.Messages()

	// The rows, in order, are the terminal's output; the sequence numbers
	// follow each other from the snapshot's.
	var rows strings.Builder
	for i, m := range msgs {
		if m.Seq != st.Snapshot.Seq+i+1 {
			t.Fatalf("message %d has seq %d, want %d", i, m.Seq, st.Snapshot.Seq+i+1)
		}
		if m.Row != nil {
			rows.WriteString(m.Row.Text)
		}
	}
	if diff := cmp.Diff(out.String()[printedBefore:], rows.String()); diff != "" {
		t.Errorf("the stream's rows differ from the terminal's output (-terminal +stream):\n%s", diff)
	}
	// A step's row carries its title in both languages, for the page's
	// heading in the language its toggle chose.
	if r := msgs[0].Row; r == nil || r.Kind != timeline.KindStep || r.TitleText == nil || *r.TitleText != buildTitle {
		t.Errorf("the first message's step row is %+v; want its title in both languages, %q", r, buildTitle)
	}

	// Every copy of web-4's notification went through every lane in order.
	journeys := webviewtest.Journeys(st.Snapshot, msgs)
	for _, h := range []string{"audit", "metrics"} {
		want := []string{"apiserver", "reflector", "queue", "indexer", "processor", "listener:" + h, "handler:" + h}
		if !hasJourney(journeys, "ns/web-4", want) {
			t.Errorf("no token of ns/web-4 went %v; the journeys:\n%s", want, dump(journeys))
		}
	}
	// A replay starts from the cache and reaches only the late handler.
	if !hasJourney(journeys, "ns/web-1", []string{"indexer", "processor", "listener:late", "handler:late"}) {
		t.Errorf("the replay of ns/web-1 to late did not start from the cache; the journeys:\n%s", dump(journeys))
	}
	// The tombstone found by the relist reaches late from the cache too.
	if !hasJourney(journeys, "ns/web-2", []string{"indexer", "processor", "listener:late", "handler:late"}) {
		t.Errorf("the tombstone of ns/web-2 did not reach late; the journeys:\n%s", dump(journeys))
	}

	// The counters, at a few moments.
	at := func(prefix string) webview.State {
		for _, m := range msgs {
			if m.Row != nil && strings.Contains(m.Row.Text, prefix) {
				return m.State
			}
		}
		t.Fatalf("no row %q", prefix)
		return webview.State{}
	}
	for _, c := range []struct {
		row, counter, want string
	}{
		{"reflector  Replace   2 pods                         rv=70", webview.CounterQueue, "1"},
		{"queue      ReplacedAll", webview.CounterQueue, "0"},
		{"indexer    Replace   2 pods                         rv=70", webview.CounterCache, "2"},
		{"HasSynced the informer", webview.CounterSynced, "true"},
		{"reflector  Add       ns/web-4", webview.CounterQueue, "1"},
		{"reflector  Add       ns/web-4", webview.CounterResourceVersion, "71"},
		{"indexer    Add       ns/web-4", webview.CounterCache, "3"},
		{"demo       CUT", webview.CounterWatch, "cut"},
		{"watch      ERROR", webview.CounterWatch, "ERROR 410 Expired"},
		{"reflector  Replace   2 pods                         rv=79", webview.CounterRelists, "1"},
		{"indexer    Replace   2 pods                         rv=79", webview.CounterCache, "2"},
		{"indexer    Delete    ns/web-4", webview.CounterCache, "1"},
	} {
		if got := at(c.row).Counters[c.counter]; got != c.want {
			t.Errorf("after the row %q, counter %s = %q, want %q", c.row, c.counter, got, c.want)
		}
	}
	// web-4's notification waits in audit's ring until audit is called.
	if l := at("processor  add       ns/web-4").Listeners; !cmp.Equal(l, []webview.Listener{{Name: "audit", Depth: 1, Synced: true}, {Name: "metrics", Depth: 1}}) {
		t.Errorf("after web-4's notification, the listeners are %+v", l)
	}
	if l := last.State.Listeners; len(l) != 3 || l[2].Name != "late" || l[2].Depth != 2 {
		t.Errorf("at the end, the listeners are %+v; want late to have two replays still waiting", l)
	}
}

func hasJourney(journeys map[string]webviewtest.Journey, key string, lanes []string) bool {
	for _, j := range journeys {
		if j.Key == key && cmp.Equal(j.Lanes, lanes) {
			return true
		}
	}
	return false
}

func dump(journeys map[string]webviewtest.Journey) string {
	var b strings.Builder
	for _, j := range journeys {
		b.WriteString("  " + j.String() + "\n")
	}
	return b.String()
}

func TestStartRefusesAnAddressOffLoopback(t *testing.T) {
	tl := timeline.New(&strings.Builder{})
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.168.1.2:8006", "example.com:80", "nonsense"} {
		if srv, err := webview.Start(addr, webview.Config{}, tl); err == nil {
			srv.Close()
			t.Errorf("Start(%q) served; want a refusal", addr)
		} else if !strings.Contains(err.Error(), "--addr="+addr) {
			t.Errorf("Start(%q): %v; want the error to name the flag", addr, err)
		}
	}
}

// TestButtonsNeedThePagesHeader: a form on another site can post to
// loopback, but cannot set a header; the buttons want one.
func TestButtonsNeedThePagesHeader(t *testing.T) {
	srv, err := webview.Start("localhost:0", webview.Config{}, timeline.New(&strings.Builder{}))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	pressed := 0
	srv.Handle("create", func(context.Context) (lang.Text, error) { pressed++; return lang.T("created", "已创建"), nil })
	resp, err := http.Post(srv.URL()+"act/create", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || pressed != 0 {
		t.Errorf("a POST without the header: %s, action called %d times; want 403 and none", resp.Status, pressed)
	}
	if got := webviewtest.Press(t, srv.URL(), "create"); got != "created" || pressed != 1 {
		t.Errorf("a press: %q, action called %d times", got, pressed)
	}
}
