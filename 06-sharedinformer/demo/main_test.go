package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/internal/demo/demotest"
	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/timeline"
)

// TestDemoRunsToCompletion runs the whole demo on a playground, as `make
// run-stage 6` does, with each queue, and checks it exits 0 having shown
// every layer of every step. The run with the RealFIFO narrates in English
// and holds back every write's answer: each write must be printed before
// the rows of the watch events it caused (its creates and its label place
// nine resourceVersions at least). The run with the DeltaFIFO narrates in
// Chinese: every step and note in Chinese, the rows the same.
func TestDemoRunsToCompletion(t *testing.T) {
	for _, tc := range []struct {
		queue string
		lang  string
		// rows are regular expressions that must match, in this order.
		rows []string
	}{
		{"realfifo", lang.EN, []string{
			// The initial list: one Replace, one ReplacedAll, one cache Replace.
			`reflector +Replace +3 pods`, `queue +ReplacedAll 3 pods .*isInInitialList=true`, `indexer +Replace +3 pods`,
			// web-4, created, through every layer.
			`reflector +Add +stage06/web-4`, `queue +Added +stage06/web-4`, `indexer +Add +stage06/web-4`,
			`processor +add +stage06/web-4`, `handler +OnAdd +stage06/web-4 +(audit|metrics):`,
			// The late handler's replay.
			`processor +replay +stage06/web-\d +late: .*isInInitialList=true`, `synced +HasSynced late`,
			// The relist after a 410: the consumer finds the deletion.
			`watch +ERROR .*410 Expired`, `queue +ReplacedAll 3 pods`,
			`processor +delete +stage06/web-3 .*DeletedFinalStateUnknown`,
			`handler +OnDelete +stage06/web-3 +late: .*DeletedFinalStateUnknown`,
		}},
		{"deltafifo", lang.ZH, []string{
			// The initial list: one Replaced item per pod.
			`reflector +Replace +3 个 Pod`, `queue +Replaced +stage06/web-1 .*isInInitialList=true`, `indexer +Add +stage06/web-1`,
			`reflector +Add +stage06/web-4`, `queue +Added +stage06/web-4`, `indexer +Add +stage06/web-4`,
			`processor +replay +stage06/web-\d +late: .*isInInitialList=true`,
			// The queue makes the tombstone, after the listed pods.
			`watch +ERROR .*410 Expired`, `queue +Replaced +stage06/web-5`,
			`queue +Deleted +stage06/web-3 .*DeletedFinalStateUnknown`, `indexer +Delete +stage06/web-3`,
		}},
	} {
		t.Run(tc.queue, func(t *testing.T) {
			l := tc.lang
			cache, held, _ := strings.Cut(sayCache.In(l), "%v")
			want := []string{
				sayBuildTitle.Format(tc.queue).In(l),
				sayLateDelete.Format("stage06/web-3", true).In(l),
				// The mechanisms the --break switches take away, in place.
				saySameView.In(l),
				cache + "[web-1@",
				strings.ReplaceAll(held, "%d", "0"), // managedFields entries held: 0
				"STOPPED   RunWithContext                 IsStopped()=true — " + sayReturned.In(l),
			}
			args := []string{"--queue=" + tc.queue, "--lang=" + l}
			var tr demotest.Transcript
			if l == lang.EN {
				tr = demotest.RunCausalTranscript(t, options, args, run, 9, want...)
			} else {
				tr = demotest.RunTranscript(t, options, args, run, want...)
				demotest.NarratesInChinese(t, tr)
				demotest.RowsSayNoEnglish(t, tr)
			}
			out := tr.Out
			heardAllAgreesWithItsRows(t, tr)
			rest := out
			for _, row := range tc.rows {
				loc := regexp.MustCompile(row).FindStringIndex(rest)
				if loc == nil {
					t.Fatalf("no row matching %q after the rows before it:\n%s", row, out)
				}
				rest = rest[loc[1]:]
			}
		})
	}
}

// TestDemoOnlyReadsARealCluster runs the demo, with each queue, against a
// cluster given with --kubeconfig (a second playground, standing in for a
// real cluster): it must only read there. It lists the pods of every
// namespace, says it is read-only, skips the steps that create, delete and
// compact, and leaves every namespace and pod as it found them.
func TestDemoOnlyReadsARealCluster(t *testing.T) {
	for _, queue := range []string{"realfifo", "deltafifo"} {
		t.Run(queue, func(t *testing.T) {
			demotest.RunOnRealCluster(t, options, []string{"--queue=" + queue}, run, []schema.GroupVersionResource{
				{Version: "v1", Resource: "namespaces"},
				{Version: "v1", Resource: "pods"},
			}, "Read-only on a real cluster", "queue: "+queue, "IsStopped()=true")
		})
	}
}

// TestChaosDemoShowsEachRecovery runs the demo with --chaos: after the
// usual steps, the proxy cuts the watch (the reflector resumes from its
// resourceVersion, no relist), sends a 410 (it relists), and the apiserver
// restarts (it resumes again, and a pod created after the restart reaches
// every handler).
func TestChaosDemoShowsEachRecovery(t *testing.T) {
	out := demotest.RunWithArgs(t, options, []string{"--chaos"}, run,
		"--chaos: the informer talks to a fault-injecting proxy",
		"STOPPED   RunWithContext                 IsStopped()=true — returned",
	)
	resume := `http +GET +/api/v1/namespaces/stage06/pods allowWatchBookmarks=true&resourceVersion=\d+&timeoutSeconds=\d+&watch=true`
	rest := out[strings.Index(out, "Chaos 1"):]
	for _, row := range []string{
		`fault +cut-watch pods watch +— connection aborted after \d+ events`, resume, `handler +OnUpdate +stage06/web-1 .*rv=\d+ → rv=\d+`,
		`fault +410-gone +pods watch`, `watch +ERROR .*410 Expired`,
		`http +GET .*sendInitialEvents=true`, `reflector +Replace +3 pods`,
		// The relist's rows end before the next step begins.
		`queue +ReplacedAll +3 pods`, `indexer +Replace +3 pods`, `handler +OnUpdate +stage06/web-5 +metrics: .*a sync`,
		`Chaos 3: the apiserver restarts`,
		`demo +RESTART +kube-apiserver`, `demo +READY +kube-apiserver`, resume,
		`handler +OnAdd +stage06/web-6`,
	} {
		loc := regexp.MustCompile(row).FindStringIndex(rest)
		if loc == nil {
			t.Fatalf("no row matching %q after the rows before it:\n%s", row, out)
		}
		rest = rest[loc[1]:]
	}
}

// TestBreakSwitchesShowTheirFailure runs the demo with each --break switch
// on the playground: the failure the chapter describes must show in the
// timeline (TestDemoRunsToCompletion checks it does not without the
// switch), and the demo must still end by itself.
func TestBreakSwitchesShowTheirFailure(t *testing.T) {
	for _, tc := range []struct {
		name string
		want []string // in this order
		not  []string
	}{
		{"tombstones", []string{
			`watch +ERROR .*410 Expired`, `indexer +Replace +3 pods`,
			`Cache: \[web-1@\d+ web-4@\d+ web-5@\d+\]`,
			`audit's own view, built from its calls alone: \[web-1@\d+ web-3@\d+ web-4@\d+ web-5@\d+\]; ghosts \(never deleted there\): \[web-3@\d+\]`,
		}, []string{`processor +delete +stage06/web-3`, `OnDelete +stage06/web-3`, `late's typed DeleteFunc`}},
		{"blocking-listener", []string{
			`STALLS +stage06/burst-1`,
			`WAITED +5s +— audit has not heard of burst-4: the distributor waits for slow`,
			`audit heard of: \[stage06/burst-1 stage06/burst-2( stage06/burst-3)?\]`,
			`RELEASE +slow`, `indexer +Add +stage06/burst-4`, `handler +OnAdd +stage06/burst-4 +audit:`,
			`audit's own view, built from its calls alone: the same pods.`,
		}, []string{`audit has heard of all \d+ pods`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := demotest.RunWithArgs(t, options, []string{"--break=" + tc.name}, run, "--break="+tc.name+": ")
			demotest.RowsShowBreak(t, tc.name, out, tc.want, tc.not)
		})
	}
}

// TestBreakHelpListsEverySwitch: --break=help is answered before any
// playground starts, and names every switch.
func TestBreakHelpListsEverySwitch(t *testing.T) {
	if !breakHelpAsked([]string{"--break=help"}) || !breakHelpAsked([]string{"-break", "help"}) || breakHelpAsked([]string{"--break=tombstones"}) {
		t.Error("breakHelpAsked misreads its arguments")
	}
	for _, l := range []string{lang.EN, lang.ZH} {
		var b strings.Builder
		printBreaks(&b, l)
		for _, name := range []string{"--break=tombstones", "--break=blocking-listener"} {
			if !strings.Contains(b.String(), name) {
				t.Errorf("--break=help does not list %s:\n%s", name, b.String())
			}
		}
		if !strings.Contains(b.String(), sayBreaksIntro.In(l)) {
			t.Errorf("--lang=%s --break=help is not in its language:\n%s", l, b.String())
		}
	}
	// Each switch is said in both languages, the English as the informer
	// says it.
	for _, b := range informer.AllBreaks {
		if what, ok := sayBreakWhat[b.Name]; !ok || what.EN != b.What {
			t.Errorf("--break=%s: narration.go says %q; want the informer's %q, and its Chinese", b.Name, what, b.What)
		}
	}
	if len(sayBreakWhat) != len(informer.AllBreaks) {
		t.Errorf("narration.go says %d switches, the informer has %d", len(sayBreakWhat), len(informer.AllBreaks))
	}
}

// heardAllAgreesWithItsRows reads the stalled handler's step as a person
// would: the burst pods the demo created, audit's OnAdd of each before the
// note, slow's only of burst-1 (its STALLS row). The note (sayHeardAll)
// must count the same pods, a ring of two (the ring keeps what neither the
// stuck OnAdd nor pop's hand holds), and its parts must add up.
func heardAllAgreesWithItsRows(t *testing.T, tr demotest.Transcript) {
	t.Helper()
	notes := demotest.NoteArgs(tr, sayHeardAll)
	if len(notes) != 1 {
		t.Fatalf("%d notes of sayHeardAll, want 1", len(notes))
	}
	n := make([]int, len(notes[0]))
	for i, a := range notes[0] {
		n[i], _ = strconv.Atoi(a)
	}
	created, heard, slow := 0, 0, 0
	for _, r := range tr.Rows {
		if r.Kind == timeline.KindNote && strings.HasPrefix(r.Detail, strings.SplitN(sayHeardAll.In(lang.EN), "%", 2)[0]) ||
			r.Kind == timeline.KindNote && strings.HasPrefix(r.Detail, strings.SplitN(sayHeardAll.In(lang.ZH), "%", 2)[0]) {
			break
		}
		if r.Kind != timeline.KindEvent || !strings.HasPrefix(r.Object, "stage06/burst-") {
			continue
		}
		switch {
		case r.Layer == "demo" && r.What == "CREATE":
			created++
		case r.Layer == "handler" && r.What == "OnAdd" && strings.HasPrefix(r.Protocol, "audit:"):
			heard++
		case r.Layer == "handler" && r.What == "OnAdd" && strings.HasPrefix(r.Protocol, "slow:"):
			slow++
		}
	}
	if n[0] != created || n[0] != heard || slow != 1 || n[1] != created-2 || n[2] != 1 || n[0] != n[1]+n[2]+n[3] {
		t.Errorf("the note says %v (pods, ring, in OnAdd, in pop's hand); the rows before it: %d created, %d heard of by audit, %d OnAdd of slow's (want 1); the ring should hold all but the stuck one and the one in pop's hand", n, created, heard, slow)
	}
}
