package reflector_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestScriptedWatchList is TestScriptedListThenWatch with WatchList on:
// client-go's WatchListClient gate set, and our UseWatchList option.
func TestScriptedWatchList(t *testing.T) {
	for _, sc := range watchListScenarios() {
		t.Run(sc.name, func(t *testing.T) { runBoth(t, sc) })
	}
}

func watchListScenarios() []scenario {
	stream := watchReply{events: []timedEvent{
		added(pod("a", "5")), added(pod("b", "6")), initialEventsEnd("10"),
	}}
	first := listReply{list: podList("10", "", pod("a", "5"), pod("b", "6"))}
	errInvalid := apierrors.NewInvalid(schema.GroupKind{Kind: "Pod"}, "", nil)
	scenarios := []scenario{
		{
			name: "initial ADDED events, then the bookmark: the store is replaced, and the same watch carries on",
			watches: []watchReply{{events: []timedEvent{
				added(pod("a", "5")), added(pod("b", "6")), modified(pod("a", "7")), added(pod("c", "8")), deleted(pod("c", "9")),
				initialEventsEnd("10"), added(pod("d", "11")), modified(pod("b", "12")),
			}}},
		},
		{
			name:  "a transforming store: the stream's objects are transformed as they reach the temporary store, and Replace gets them transformed",
			store: transformingStore,
			watches: []watchReply{{events: []timedEvent{
				added(pod("a", "5")), added(pod("b", "6")), modified(pod("a", "7")), added(pod("c", "8")), deleted(pod("c", "9")),
				initialEventsEnd("10"), added(pod("d", "11")),
			}}},
		},
		{
			name:  "a transform that fails leaves that object out of the stream's state, and says why",
			store: transformingStore,
			watches: []watchReply{{events: []timedEvent{
				added(pod("a", "5")), added(pod("fail-transform-x", "6")), modified(pod("a", "7")), initialEventsEnd("10"),
			}}},
		},
		{
			name:  "the initial-events-end bookmark goes to the temporary store, later bookmarks to the store",
			store: bookmarkStore,
			watches: []watchReply{{events: []timedEvent{
				added(pod("a", "5")), bookmark("7"), initialEventsEnd("10"), bookmark("11"),
			}}},
		},
		{
			name:    "a store that tracks the resourceVersion hears nothing until the stream is synced",
			store:   rvUpdaterStore,
			watches: []watchReply{{events: []timedEvent{added(pod("a", "5")), initialEventsEnd("10"), added(pod("b", "11"))}}},
		},
		{
			name: "a bookmark annotated false does not end the initial events",
			watches: []watchReply{{events: []timedEvent{
				added(pod("a", "5")), annotatedBookmark("6", "false"), added(pod("b", "7")), initialEventsEnd("10"),
			}}},
		},
		{
			name:    "a server that refuses streaming (Invalid) makes the reflector fall back to LIST",
			lists:   []listReply{first},
			watches: []watchReply{{err: errInvalid}, {events: []timedEvent{added(pod("c", "11"))}}},
		},
		{
			name:    "any other error on the streaming request falls back to LIST too",
			lists:   []listReply{first},
			watches: []watchReply{{err: errors.New("stream broke")}},
		},
		{
			name:    "429 on the streaming request backs off and streams again",
			watches: []watchReply{{err: errBusy}, {err: errBusy}, stream},
		},
		{
			name:    "a 429 ERROR event in the stream backs off and streams again",
			watches: []watchReply{{events: []timedEvent{added(pod("a", "5")), errorEvent(errBusy)}}, stream},
		},
		{
			name:    "a stream that ends before the bookmark is started again at once",
			watches: []watchReply{{events: []timedEvent{added(pod("a", "5"))}}, stream},
		},
		{
			name:    "a stream that closes at once with nothing in it is a very short watch: fall back to LIST",
			lists:   []listReply{first},
			watches: []watchReply{{}},
		},
		{
			name:    "a 500 ERROR event in the stream falls back to LIST",
			lists:   []listReply{first},
			watches: []watchReply{{events: []timedEvent{added(pod("a", "5")), errorEvent(errInternal)}}},
		},
		{
			name: "after a 410 on the watch, the new stream starts at the last resourceVersion; a 410 there restarts it from \"\"",
			watches: []watchReply{
				{events: []timedEvent{added(pod("a", "5")), initialEventsEnd("10"), modified(pod("a", "11")), errorEvent(errExpired)}},
				{events: []timedEvent{errorEvent(errExpired)}},
				{events: []timedEvent{added(pod("a", "15")), initialEventsEnd("20")}},
			},
		},
		{
			name: "an expired resourceVersion on the streaming request restarts it from \"\"",
			watches: []watchReply{
				{events: []timedEvent{added(pod("a", "5")), initialEventsEnd("10"), errorEvent(errExpired)}},
				{err: errExpired},
				{events: []timedEvent{added(pod("a", "15")), initialEventsEnd("20")}},
			},
		},
		{
			// client-go v0.37.2's watchList returns the Replace error
			// without stopping the stream, and so does ours: both sides
			// leave that one watch open (WatchesLeftOpen is 1).
			name:        "a store that refuses the streamed state makes the reflector fall back to LIST",
			failReplace: 1,
			lists:       []listReply{first},
			watches:     []watchReply{stream},
		},
		{
			name: "the watch request after a synced stream is refused: the error handler hears it, the next round streams again",
			watches: []watchReply{
				{events: []timedEvent{added(pod("a", "5")), initialEventsEnd("10"), added(pod("c", "11"))}},
				{err: errForbid},
				{events: []timedEvent{added(pod("a", "5")), added(pod("c", "11")), initialEventsEnd("12"), added(pod("d", "13"))}},
			},
		},
	}
	for i := range scenarios {
		scenarios[i].watchList = true
	}
	return scenarios
}

// TestWatchListTransformsWhatItGathersLikeClientGo states the premise of the
// transforming-store scenario on client-go's log, so the comparison cannot
// pass with both sides transforming nothing: client-go transforms each ADDED
// and MODIFIED object of the stream as it arrives (not the DELETED one, nor
// anything after the bookmark), and hands Replace the transformed objects.
func TestWatchListTransformsWhatItGathersLikeClientGo(t *testing.T) {
	var sc scenario
	for _, s := range watchListScenarios() {
		if strings.HasPrefix(s.name, "a transforming store:") {
			sc = s
		}
	}
	cg, _ := runBoth(t, sc)
	var got []string
	for _, e := range cg.Log {
		if e.Call == "Transform" || e.Call == "Replace" {
			got = append(got, e.Call+" "+e.Arg)
		}
	}
	want := []string{
		"Transform ns/a@5", "Transform ns/b@6", "Transform ns/a@7", "Transform ns/c@8",
		"Replace [ns/a@7 transformed×1 ns/b@6 transformed×1] rv=10",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("client-go's transforms and Replace (-expected +client-go):\n%s", diff)
	}
}
