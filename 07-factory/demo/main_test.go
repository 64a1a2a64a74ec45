package main

import (
	"regexp"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"informer-from-scratch/internal/crd"
	"informer-from-scratch/internal/demo/demotest"
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
	out := demotest.RunCausal(t, options, run, 3,
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
