package reflector_test

import (
	"errors"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
)

var (
	errExpired = apierrors.NewResourceExpired("too old resource version: 10 (20)")
	//lint:ignore SA1019 a 410 with reason Gone still reaches reflectors (old servers, proxies); client-go's isExpiredError accepts it and the tests must send it.
	errGone     = apierrors.NewGone("gone")
	errBusy     = apierrors.NewTooManyRequests("busy, try again later", 1)
	errInternal = apierrors.NewInternalError(errors.New("etcdserver: leader changed"))
	errForbid   = apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "", errors.New("no"))
)

// tooLarge is how an apiserver says it has not reached the resourceVersion
// asked for yet.
func tooLarge() error {
	err := apierrors.NewTimeoutError("Too large resource version", 1)
	err.ErrStatus.Details.Causes = []metav1.StatusCause{{Type: metav1.CauseTypeResourceVersionTooLarge}}
	return err
}

// TestScriptedListThenWatch drives both reflectors, with WatchList off,
// through scripted LIST answers and watch streams, and compares every
// request (with its options), every store call, every reported error and
// the virtual time of each, plus the final store content and
// LastSyncResourceVersion.
func TestScriptedListThenWatch(t *testing.T) {
	for _, sc := range listThenWatchScenarios() {
		t.Run(sc.name, func(t *testing.T) { runBoth(t, sc) })
	}
}

func listThenWatchScenarios() []scenario {
	a5, b7 := pod("a", "5"), pod("b", "7")
	first := listReply{list: podList("10", "", a5, b7)}
	return []scenario{
		{
			name:    "watch events become store calls and move the resourceVersion",
			lists:   []listReply{first},
			watches: []watchReply{{events: []timedEvent{added(pod("c", "11")), modified(pod("a", "12")), deleted(pod("b", "13")), bookmark("14")}}},
		},
		{
			name:    "a transforming store gets every object as it came: the reflector transforms only a WatchList stream",
			store:   transformingStore,
			lists:   []listReply{first},
			watches: []watchReply{{events: []timedEvent{added(pod("c", "11")), modified(pod("a", "12"))}}},
		},
		{
			name:    "a bookmark reaches a store that accepts bookmarks",
			store:   bookmarkStore,
			lists:   []listReply{first},
			watches: []watchReply{{events: []timedEvent{bookmark("11"), added(pod("c", "12")), bookmark("13")}}},
		},
		{
			name:    "a store that tracks the resourceVersion sees every event's",
			store:   rvUpdaterStore,
			lists:   []listReply{first},
			watches: []watchReply{{events: []timedEvent{added(pod("c", "11")), bookmark("12"), deleted(pod("c", "13"))}}},
		},
		{
			name:  "a watch from resourceVersion \"\" records nothing until the initial ADDED events are over",
			store: rvUpdaterStore,
			lists: []listReply{{list: podList("", "")}},
			watches: []watchReply{{events: []timedEvent{
				added(pod("a", "9")), added(pod("b", "6")), modified(pod("a", "11")), added(pod("c", "12")),
			}}},
		},
		{
			name:    "a 410 ERROR event ends the watch; the relist, after a backoff, asks for the last resourceVersion without paging",
			lists:   []listReply{first, {list: podList("20", "", pod("a", "15"), pod("c", "18"))}},
			watches: []watchReply{{events: []timedEvent{modified(pod("a", "11")), errorEvent(errExpired)}}},
		},
		{
			name:    "410 with reason Gone is treated like Expired",
			lists:   []listReply{first, {list: podList("20", "")}},
			watches: []watchReply{{events: []timedEvent{errorEvent(errGone)}}},
		},
		{
			name:    "a relist at an expired resourceVersion is retried at once with \"\"",
			lists:   []listReply{first, {err: errExpired}, {list: podList("30", "", pod("z", "29"))}},
			watches: []watchReply{{events: []timedEvent{errorEvent(errExpired)}}},
		},
		{
			// The retry at "" is the reflector's "unavailable" mark at work,
			// not a special case of the retry: the mark outlives a failed
			// retry, so the next round, after its backoff, asks for "" again.
			name:    "a relist at an expired resourceVersion whose retry at \"\" fails: the next round lists at \"\" again",
			lists:   []listReply{first, {err: errExpired}, {err: errInternal}, {list: podList("30", "", pod("z", "29"))}},
			watches: []watchReply{{events: []timedEvent{errorEvent(errExpired)}}},
		},
		{
			name:    "a relist at a resourceVersion the server has not reached is retried with \"\"",
			lists:   []listReply{first, {err: tooLarge()}, {list: podList("30", "")}},
			watches: []watchReply{{events: []timedEvent{errorEvent(errExpired)}}},
		},
		{
			name:    "429 on the watch request backs off and watches again without relisting",
			lists:   []listReply{first},
			watches: []watchReply{{err: errBusy}, {err: errBusy}, {err: errBusy}, {events: []timedEvent{added(pod("c", "11"))}}},
		},
		{
			name:    "connection refused backs off and watches again without relisting",
			lists:   []listReply{first},
			watches: []watchReply{{err: syscall.ECONNREFUSED}, {err: syscall.ECONNREFUSED}, {events: []timedEvent{added(pod("c", "11"))}}},
		},
		{
			name:    "a 429 ERROR event backs off and watches again from the last resourceVersion",
			lists:   []listReply{first},
			watches: []watchReply{{events: []timedEvent{added(pod("c", "11")), errorEvent(errBusy)}}, {events: []timedEvent{added(pod("d", "12"))}}},
		},
		{
			name:        "a 500 ERROR event is retried in place until MaxInternalErrorRetryDuration, then the reflector relists",
			maxInternal: 30 * time.Second,
			lists:       []listReply{first, {list: podList("40", "")}},
			watches: []watchReply{
				{events: []timedEvent{after(10*time.Second, errorEvent(errInternal))}},
				{events: []timedEvent{after(10*time.Second, errorEvent(errInternal))}},
				{events: []timedEvent{after(10*time.Second, errorEvent(errInternal))}},
				{events: []timedEvent{after(10*time.Second, errorEvent(errInternal))}},
				{events: []timedEvent{after(10*time.Second, errorEvent(errInternal))}},
			},
		},
		{
			name:    "a 500 ERROR event relists when in-place retries are off",
			lists:   []listReply{first, {list: podList("40", "")}},
			watches: []watchReply{{events: []timedEvent{errorEvent(errInternal)}}},
		},
		{
			name:    "a watch request refused for good goes to the error handler, then the reflector relists",
			lists:   []listReply{first, {list: podList("20", "")}},
			watches: []watchReply{{err: errForbid}},
		},
		{
			name:    "a watch that closes at once with no events is a very short watch: relist after a backoff",
			lists:   []listReply{first, {list: podList("20", "")}},
			watches: []watchReply{{}},
		},
		{
			// Some proxies flush no headers before the first event: the
			// request itself took the two seconds the watch lasted.
			name:    "a watch answered after 2s that closes with nothing in it is not a very short watch: the clock starts before the request",
			lists:   []listReply{first},
			watches: []watchReply{{delay: 2 * time.Second}, {events: []timedEvent{added(pod("c", "11"))}}},
		},
		{
			name:    "a quiet watch the server closes after a while is restarted in place",
			lists:   []listReply{first},
			watches: []watchReply{{closeAfter: 2 * time.Second}, {closeAfter: 3 * time.Second}},
		},
		{
			name:  "objects of the wrong type are reported and skipped",
			lists: []listReply{first},
			watches: []watchReply{{events: []timedEvent{
				ev(watch.Added, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "cm", ResourceVersion: "11"}}),
				added(pod("c", "12")),
			}}},
		},
		{
			name:         "unstructured objects of the wrong kind are reported and skipped",
			expectedType: unstructuredOf("v1", "Pod", "", ""),
			lists:        []listReply{{list: &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "v1", "kind": "PodList", "metadata": map[string]any{"resourceVersion": "10"}}}}},
			watches: []watchReply{{events: []timedEvent{
				ev(watch.Added, unstructuredOf("v1", "ConfigMap", "cm", "11")),
				ev(watch.Added, unstructuredOf("v1", "Pod", "p", "12")),
			}}},
		},
		{
			name:   "with no expected type: Tables, objects without metadata and unknown event types are reported and skipped",
			noType: true,
			lists:  []listReply{first},
			watches: []watchReply{{events: []timedEvent{
				ev(watch.Added, unstructuredOf("meta.k8s.io/v1", "Table", "t", "11")),
				ev(watch.Added, &metav1.Status{Status: "Success"}),
				ev("WEIRD", pod("w", "12")),
				added(pod("c", "13")),
			}}},
		},
		{
			name:  "store errors are reported and the watch goes on",
			store: bookmarkStore,
			lists: []listReply{first},
			watches: []watchReply{{events: []timedEvent{
				added(pod("fail-1", "11")), modified(pod("fail-2", "12")), deleted(pod("fail-3", "13")), bookmark("99"), added(pod("c", "100")),
			}}},
		},
		{
			name:        "a store that refuses Replace fails the round; the next list starts again from \"0\"",
			failReplace: 1,
			lists:       []listReply{first, first},
		},
		{
			name:  "a failed LIST goes to the error handler and is retried after a backoff",
			lists: []listReply{{err: errInternal}, {err: errBusy}, first},
		},
		{
			name:  "a LIST answer that is not a list is an error",
			lists: []listReply{{list: pod("x", "1")}, first},
		},
		{
			// The pager returns its fallback's answer as the server sent it,
			// unchecked: the reflector is the one to find it is not a list.
			name:     "a non-list answer to the pager's fallback after an expired continue token is an error",
			pageSize: 1,
			lists:    []listReply{{list: podList("10", "c1", a5)}, {err: errExpired}, {list: &runtime.Unknown{Raw: []byte("not a list")}}, first},
		},
		{
			// A Status carries list metadata (a resourceVersion) but no
			// items: it passes for a list until the items are taken out.
			name:  "a LIST answer with list metadata but no items is an error",
			lists: []listReply{{list: &metav1.Status{ListMeta: metav1.ListMeta{ResourceVersion: "10"}}}, first},
		},
		{
			name:  "a LIST answer in Table format is refused",
			lists: []listReply{{list: &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "meta.k8s.io/v1", "kind": "Table", "metadata": map[string]any{"resourceVersion": "10"}}}}, first},
		},
		{
			name: "a first LIST that came in pages keeps later lists paged",
			lists: []listReply{
				{list: podList("10", "c1", a5)}, {list: podList("10", "", b7)},
				{list: podList("20", "c2", a5)}, {list: podList("20", "", b7)},
			},
			watches: []watchReply{{events: []timedEvent{errorEvent(errExpired)}}},
		},
		{
			// Only a paged answer to the first list ("0") says the watch
			// cache is off. A relist at "" (after an expired resourceVersion)
			// is paged by etcd even with the cache on, and must not make the
			// next relist at a resourceVersion page too.
			name: "a relist at \"\" that came in pages does not make later relists page",
			lists: []listReply{
				first, {err: errExpired},
				{list: podList("20", "c1", a5)}, {list: podList("20", "", b7)},
				{list: podList("30", "", a5, b7)},
			},
			watches: []watchReply{{events: []timedEvent{errorEvent(errExpired)}}, {events: []timedEvent{errorEvent(errExpired)}}},
		},
		{
			name:     "WatchListPageSize sets the page size of every list",
			pageSize: 1,
			lists: []listReply{
				{list: podList("10", "c1", a5)}, {list: podList("10", "", b7)},
				{list: podList("20", "c2", a5)}, {list: podList("20", "", b7)},
			},
			watches: []watchReply{{events: []timedEvent{errorEvent(errExpired)}}},
		},
		{
			name:     "an expired continue token makes the pager fall back to one full list",
			pageSize: 1,
			lists:    []listReply{{list: podList("10", "c1", a5)}, {err: errExpired}, first},
		},
		{
			name:         "resync calls the store's Resync every period, when ShouldResync agrees",
			resync:       700 * time.Millisecond,
			shouldResync: []bool{true, false, true},
			lists:        []listReply{first},
			after:        3 * time.Second,
		},
		{
			name:         "a failing Resync ends the watch; the reflector relists",
			resync:       700 * time.Millisecond,
			failResyncAt: 2,
			lists:        []listReply{first, {list: podList("20", "")}},
			watches:      []watchReply{{closeAfter: 10 * time.Second}},
		},
	}
}

func unstructuredOf(apiVersion, kind, name, rv string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(apiVersion)
	u.SetKind(kind)
	if name != "" {
		u.SetNamespace("ns")
		u.SetName(name)
		u.SetResourceVersion(rv)
	}
	return u
}
