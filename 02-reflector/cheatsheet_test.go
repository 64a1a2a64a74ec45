package reflector_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The worked timelines of docs/{en,zh}/reflector-cheatsheet.md, as
// scenarios. Each runs on client-go's reflector and on ours (runBoth fails
// if they differ in any request, store call or moment), with client-go's
// default backoff minus the jitter, so that the times are exact; client-go's
// log must then be the page's block, line for line. A timeline ends with
// the request the script has no answer for, which stays open.
var cheatSheetTimelines = map[string]scenario{
	"list-watch": {
		name:  "LIST+WATCH: a timeout, a bookmark, connection refused, 429, 410 on the watch and on the relist",
		store: bookmarkStore,
		lists: []listReply{
			{list: podList("10", "", pod("a", "5"), pod("b", "7"))},
			{err: errExpired},
			{list: podList("30", "", pod("a", "11"), pod("c", "28"))},
		},
		watches: []watchReply{
			{events: []timedEvent{after(time.Minute, modified(pod("a", "11"))), after(time.Minute, bookmark("15"))}, closeAfter: 5 * time.Minute},
			{err: syscall.ECONNREFUSED},
			{err: errBusy},
			{events: []timedEvent{errorEvent(errExpired)}},
		},
	},
	"watchlist": {
		name:      "WatchList: the stream, a timeout, 410 on the watch and on the next stream",
		watchList: true,
		watches: []watchReply{
			{events: []timedEvent{added(pod("a", "5")), added(pod("b", "7")), initialEventsEnd("10"), after(time.Minute, modified(pod("a", "11")))}, closeAfter: 5 * time.Minute},
			{events: []timedEvent{errorEvent(errExpired)}},
			{err: errExpired},
			{events: []timedEvent{added(pod("a", "11")), added(pod("c", "28")), initialEventsEnd("30")}, closeAfter: 7 * time.Minute},
		},
	},
}

// timelineBlock finds, after a "<!-- timeline: NAME -->" line, the text
// block that follows it.
var timelineBlock = regexp.MustCompile("(?s)<!-- timeline: ([\\w-]+) -->\n```text\n(.*?)```")

func TestCheatSheetTimelines(t *testing.T) {
	logs := map[string]string{}
	for name, sc := range cheatSheetTimelines {
		t.Run(name, func(t *testing.T) {
			cg, _ := runBoth(t, sc)
			logs[name] = trimLines(logString(cg.Log))
		})
	}
	for _, lang := range []string{"en", "zh"} {
		path := filepath.Join("..", "docs", lang, "reflector-cheatsheet.md")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		found := map[string]bool{}
		for _, m := range timelineBlock.FindAllStringSubmatch(string(b), -1) {
			name, block := m[1], trimLines(m[2])
			found[name] = true
			want, ok := logs[name]
			if !ok {
				t.Errorf("%s: a timeline named %q, which no scenario here plays", path, name)
				continue
			}
			if diff := cmp.Diff(want, block); diff != "" {
				t.Errorf("%s: timeline %q is not what client-go's reflector does (-client-go +page):\n%s", path, name, diff)
			}
		}
		for name := range cheatSheetTimelines {
			if !found[name] {
				t.Errorf("%s: no timeline %q (a \"<!-- timeline: %s -->\" line before a text block)", path, name, name)
			}
		}
	}
}

// trimLines drops the blank lines at either end, the spaces at the end of
// each line and the indentation all lines share: what a page may change
// without changing the timeline.
func trimLines(s string) string {
	lines := strings.Split(strings.Trim(s, "\n"), "\n")
	indent := -1
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
		if n := len(lines[i]) - len(strings.TrimLeft(lines[i], " ")); lines[i] != "" && (indent < 0 || n < indent) {
			indent = n
		}
	}
	for i, l := range lines {
		if len(l) >= indent && indent > 0 {
			lines[i] = l[indent:]
		}
	}
	return strings.Join(lines, "\n") + "\n"
}
