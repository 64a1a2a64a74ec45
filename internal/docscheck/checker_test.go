package docscheck

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCheckCitationCatchesMistakes makes sure the citation check can fail:
// real client-go names pass, invented ones do not, and spans that are not
// citations are left alone.
func TestCheckCitationCatchesMistakes(t *testing.T) {
	dir, err := clientGoDir()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		span string
		ok   bool
	}{
		{"tools/cache/reflector.go", true},
		{"k8s.io/client-go/tools/pager/pager.go", true},
		{"tools/cache/reflektor.go", false},
		{"cache.NewReflectorWithOptions", true},
		{"cache.NewReflectorWithOptions()", true},
		{"cache.Reflector.ListAndWatchWithContext", true},
		{"cache.processorListener.pop", true},
		{"cache.ListWatch.DisableChunking", true}, // a field
		{"cache.Lister.List", true},               // an interface method
		{"pager.ListPager.List", true},
		{"workqueue.TypedRateLimitingInterface", true},
		{"cache.NewReflectorWithOption", false},
		{"cache.Reflector.ListAndWatchWithCtx", false},
		{"pager.ListPager.Paginate", false},
		// The apimachinery and k8s.io/utils packages informers build on.
		{"wait.Backoff.DelayWithReset", true},
		{"wait.UntilWithContext", true},
		{"wait.UntilWithCtx", false},
		{"utilruntime.HandleCrash", true},
		{"utilruntime.ReallyCrash", true},
		{"utilruntime.HandleCrashes", false},
		{"buffer.RingGrowing", true},
		{"buffer.TypedRingGrowing.WriteOne", true},
		{"buffer.RingShrinking", false},
		{"meta.ExtractListWithAlloc", true},
		{"sets.List", true},
		{"labels.Everything()", true},
		{"labels.Nothing2()", false},
		// Stage 07's: the factory's helpers and the dynamic packages.
		{"internalinterfaces.SharedInformerFactory", true},
		{"internalinterfaces.NewListWatch", false}, // ours, cited by client-go's package name
		{"dynamicinformer.NewDynamicSharedInformerFactory(dynamicClient, resync)", true},
		{"dynamicinformer.NewDynamicInformerFactory(dynamicClient, resync)", false},
		{"dynamiclister.NewRuntimeObjectShim", true},
		{"dynamiclister.Lister.Namespace", true},
		{"dynamiclister.Lister.ByNamespace", false},
		{"informers.sharedInformerFactory.InformerFor", true},
		{"informers.sharedInformerFactory.ForResources", false},
		{"gentype.Client.Watch", true}, // a method of a generic type
		{"gentype.Client.Watches", false},
		{"rest.Request.Timeout", true},
		{"make run-stage 1", true},    // not a citation
		{"listwatch.ListWatch", true}, // ours, not client-go's
	} {
		err := checkCitation(dir, tc.span)
		if (err == nil) != tc.ok {
			t.Errorf("checkCitation(%q) = %v, want ok=%v", tc.span, err, tc.ok)
		}
	}
}

func TestHeaderCitationPattern(t *testing.T) {
	for header, want := range map[string]string{
		"// Mirrors k8s.io/client-go v0.37.2 tools/cache/reflector.go: Reflector.": "tools/cache/reflector.go",
		"// Mirrors k8s.io/client-go/tools/pager/pager.go.":                        "tools/pager/pager.go",
		"// Like k8s.io/apimachinery/pkg/util/wait/backoff.go.":                    "",
		"// Mirrors k8s.io/client-go v0.37.2 dynamic/dynamicinformer/informer.go:": "dynamic/dynamicinformer/informer.go",
		"// Mirrors k8s.io/client-go v0.37.2 informers/factory.go: Shutdown.":      "informers/factory.go",
		"// (listers/generic_helpers.go)":                                          "listers/generic_helpers.go",
		"// Like k8s.io/code-generator/cmd/informer-gen/generators/factory.go.":    "",
	} {
		got := ""
		if m := citedFileInGo.FindStringSubmatch(header); m != nil {
			got = m[1]
		}
		if got != want {
			t.Errorf("%q: cited %q, want %q", header, got, want)
		}
	}
}

// TestMirroredNames pins what a header's "Mirrors" sentence yields: the
// names after each client-go file, in that file's directory, and none of
// the prose around them.
func TestMirroredNames(t *testing.T) {
	for header, want := range map[string][]mirroredName{
		"// Mirrors k8s.io/client-go v0.37.2 tools/cache/store.go (KeyFunc,\n// KeyError), controller.go (DeletionHandlingMetaNamespaceKeyFunc) and\n// delta_fifo.go (DeletedFinalStateUnknown).\n//\n// They live in Stage03 because.": {
			{"tools/cache", "KeyFunc"}, {"tools/cache", "KeyError"},
			{"tools/cache", "DeletionHandlingMetaNamespaceKeyFunc"}, {"tools/cache", "DeletedFinalStateUnknown"},
		},
		"// Mirrors k8s.io/client-go v0.37.2 tools/cache/listwatch.go: the Lister and\n// Watcher interfaces, ListWatch and its methods. The To...WithContext\n// adapters are in Adapters.go.": {
			{"tools/cache", "ListWatch"},
		},
		"// Mirrors k8s.io/client-go v0.37.2 tools/cache/shared_informer.go: processorListener.run\n// (the per-notification call and its utilruntime.HandleCrashWithLogger).": {
			{"tools/cache", "processorListener.run"},
		},
		"// Mirrors k8s.io/client-go v0.37.2 dynamic/dynamiclister/lister.go: New,\n// dynamicLister, checkSynced_locked and backoff.": {
			{"dynamic/dynamiclister", "New"}, {"dynamic/dynamiclister", "dynamicLister"}, {"dynamic/dynamiclister", "checkSynced_locked"},
		},
		"// Mirrors k8s.io/utils buffer/ring_growing.go: TypedRingGrowing, in client-go v0.37.2 tools/cache/shared_informer.go.": nil,
		"// It mirrors k8s.io/client-go v0.37.2 tools/cache/reflector.go (Reflector).":                                           nil,
	} {
		if diff := cmp.Diff(want, mirroredNames(header), cmp.AllowUnexported(mirroredName{})); diff != "" {
			t.Errorf("%q (-want +got):\n%s", header, diff)
		}
	}
}
