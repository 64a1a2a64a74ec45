package main

import (
	"fmt"
	"net/url"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"informer-from-scratch/internal/crd"
	"informer-from-scratch/internal/demo/demotest"
	"informer-from-scratch/internal/reqlog"
	"informer-from-scratch/internal/timeline"
)

// TestDemoRunsToCompletion runs the whole demo on a playground, as `make
// run-stage 7` does, and checks it exits 0 having shown each step: one
// WATCH per type with the factory, two for pods without it, the lister's
// answer with no request, the Foos through ForResource, and Shutdown.
//
// Each write is printed before what it caused: the demo prints its Foos'
// creates (three resourceVersions) and then what the informer made of
// them; the answers to writes are held back to catch a late print.
func TestDemoRunsToCompletion(t *testing.T) {
	tr := demotest.RunCausalTranscript(t, options, nil, run, 3,
		"dashboard: pods                — the same informer (the same cache) as before",
		"autoscaler's pod handler was called for 3 pods",
		"dashboard's pod handler was called for 3 pods",
		`Deployments("stage07").List("app=web,tier in (back,front)"): 2 deployments.`,
		"0 requests sent while answering.",
		"error: no informer found for samplecontroller.k8s.io/v1alpha1, Resource=foos",
		"spec.deploymentName=example-web spec.replicas=2",
		"OnAdd     stage07/third",
		"IsStopped()=true",
		"HasSynced()=false — asked for after Shutdown: not started, 0 requests sent",
	)
	requestTablesAgreeWithTheirRows(t, tr)
	out := tr.Out
	// The request tables, in order: with the factory, without, the Foos.
	rest := out
	for _, table := range []string{
		`configmaps +0 +1\n +deployments +0 +1\n +pods +0 +1\n`,
		`configmaps +0 +1\n +deployments +0 +1\n +pods +0 +2\n`,
		`foos +0 +1\n`,
	} {
		loc := regexp.MustCompile(table).FindStringIndex(rest)
		if loc == nil {
			t.Fatalf("no request table matching %q after the ones before it:\n%s", table, out)
		}
		rest = rest[loc[1]:]
	}
}

// TestDemoOnlyReadsARealCluster runs the demo against a cluster given with
// --kubeconfig (a second playground, standing in for a real cluster): stage
// 07's demo must only read there. Afterwards the cluster has no namespace and no
// CRD the demo would have made, nor any other object of the kinds it reads
// or would write, and the demo said it was read-only.
func TestDemoOnlyReadsARealCluster(t *testing.T) {
	demotest.RunOnRealCluster(t, options, nil, run, []schema.GroupVersionResource{
		{Version: "v1", Resource: "namespaces"},
		{Version: "v1", Resource: "pods"},
		{Version: "v1", Resource: "configmaps"},
		{Version: "v1", Resource: "services"},
		{Group: "apps", Version: "v1", Resource: "deployments"},
		crd.Resource,
	}, "Read-only on a real cluster", "Any resource through ForResource", "IsStopped()=true")
}

// TestRowsSpeakChinese runs the demo with --lang=zh: the steps, the notes
// and the words of every row in Chinese, the rows' protocol as in English.
func TestRowsSpeakChinese(t *testing.T) {
	demotest.InChinese(t, options, nil, run, saySameInformer.ZH, sayNewFoo.ZH)
}

// requestTablesAgreeWithTheirRows: each table of requests a step prints
// (sayCounts' rows: a resource, its LISTs, its WATCHes) counts the step's
// http rows, read back into the requests they print.
func requestTablesAgreeWithTheirRows(t *testing.T, tr demotest.Transcript) {
	t.Helper()
	rows := map[int]map[string]int{}  // step → "resource LIST" → http rows
	table := map[int]map[string]int{} // step → "resource LIST" → the table's count
	tableRow := regexp.MustCompile(`^  (\S+) +(\d+) +(\d+)$`)
	for _, r := range tr.Rows {
		switch {
		case r.Kind == timeline.KindEvent && r.Layer == "http":
			q, _ := url.ParseQuery(r.Protocol)
			req := reqlog.Request{Method: r.What, Path: r.Object, Query: q}
			if v := req.Verb(); v == "LIST" || v == "WATCH" {
				if rows[r.Step] == nil {
					rows[r.Step] = map[string]int{}
				}
				rows[r.Step][req.Resource()+" "+v]++
			}
		case r.Kind == timeline.KindNote && tableRow.MatchString(r.Detail):
			m := tableRow.FindStringSubmatch(r.Detail)
			if table[r.Step] == nil {
				table[r.Step] = map[string]int{}
			}
			for i, verb := range []string{"LIST", "WATCH"} {
				var n int
				fmt.Sscan(m[2+i], &n)
				if n > 0 {
					table[r.Step][m[1]+" "+verb] = n
				}
			}
		}
	}
	if len(table) < 3 {
		t.Errorf("%d steps printed a request table, want 3", len(table))
	}
	for step, counts := range table {
		if diff := cmp.Diff(rows[step], counts); diff != "" {
			t.Errorf("step %d: the request table is not the step's http rows (-rows +table):\n%s", step, diff)
		}
	}
}
