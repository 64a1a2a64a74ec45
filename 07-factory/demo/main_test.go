package main

import (
	"bytes"
	"context"
	"maps"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"informer-from-scratch/internal/crd"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/demo/demotest"
	"informer-from-scratch/internal/playground"
)

// TestDemoRunsToCompletion runs the whole demo on a playground, as `make
// run-stage 7` does, and checks it exits 0 having shown each step: one
// WATCH per type with the factory, two for pods without it, the lister's
// answer with no request, the Foos through ForResource, and Shutdown.
func TestDemoRunsToCompletion(t *testing.T) {
	out := demotest.Run(t, options, run,
		"dashboard: pods                the same informer (the same cache) as before",
		"autoscaler's pod handler was called for 3 pods",
		"dashboard's pod handler was called for 3 pods",
		`Deployments("stage07").List("app=web,tier in (back,front)"): 2 deployments.`,
		"0 requests sent while answering.",
		"typed factory: no informer found for samplecontroller.k8s.io/v1alpha1, Resource=foos",
		"spec.deploymentName=example-web spec.replicas=2",
		"OnAdd     stage07/third",
		"IsStopped()=true",
		"not started: HasSynced()=false, 0 requests sent",
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
	if testing.Short() {
		t.Skip("starts a playground")
	}
	ctx := context.Background()
	c, err := playground.Start(ctx, playground.Options{Progress: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	t.Setenv(demo.KubeconfigEnv, "")
	dyn, err := dynamic.NewForConfig(c.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	before := settled(t, dyn)
	var stdout, stderr bytes.Buffer
	if code := demo.Run(options, []string{"--kubeconfig", c.Kubeconfig}, &stdout, &stderr, run); code != 0 {
		t.Fatalf("exit code %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	for _, want := range []string{"Read-only on a real cluster", "Any resource through ForResource", "IsStopped()=true"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout.String())
		}
	}
	if diff := cmp.Diff(before, contents(t, dyn)); diff != "" {
		t.Errorf("the demo changed the real cluster (-before +after):\n%s", diff)
	}
}

// contents lists the objects of every kind the demo reads or would write,
// by resource and key, with their resourceVersions: any write changes it.
func contents(t *testing.T, client dynamic.Interface) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, gvr := range []schema.GroupVersionResource{
		{Version: "v1", Resource: "namespaces"},
		{Version: "v1", Resource: "pods"},
		{Version: "v1", Resource: "configmaps"},
		{Version: "v1", Resource: "services"},
		{Group: "apps", Version: "v1", Resource: "deployments"},
		crd.Resource,
	} {
		list, err := client.Resource(gvr).List(context.Background(), metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, item := range list.Items {
			out[gvr.Resource+" "+item.GetNamespace()+"/"+item.GetName()] = item.GetResourceVersion()
		}
	}
	return out
}

// settled waits until the apiserver has made the objects it makes by itself
// after it starts (the default/kubernetes service, a config map in
// kube-system): two looks a second apart see the same.
func settled(t *testing.T, client dynamic.Interface) map[string]string {
	t.Helper()
	last := contents(t, client)
	for range 60 {
		time.Sleep(time.Second)
		now := contents(t, client)
		if _, ok := now["services default/kubernetes"]; ok && maps.Equal(last, now) {
			return now
		}
		last = now
	}
	t.Fatal("the cluster did not settle within a minute")
	return nil
}
