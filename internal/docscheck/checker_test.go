package docscheck

import "testing"

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
		{"make run-stage 1", true},    // not a citation
		{"listwatch.ListWatch", true}, // ours, not client-go's
	} {
		err := checkCitation(dir, tc.span)
		if (err == nil) != tc.ok {
			t.Errorf("checkCitation(%q) = %v, want ok=%v", tc.span, err, tc.ok)
		}
	}
}
