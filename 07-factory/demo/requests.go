// Not a mirror of client-go: the demo's count of the requests the
// playground served, by resource and verb, taken from the request log
// (internal/reqlog) of the demo's clients.

package main

import (
	"slices"
	"sync"

	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/reqlog"
	"informer-from-scratch/internal/timeline"
)

// requestCounts counts LIST and WATCH requests per resource.
type requestCounts struct {
	mu sync.Mutex
	n  map[string]map[string]int // resource → verb → requests
}

func newRequestCounts() *requestCounts { return &requestCounts{n: map[string]map[string]int{}} }

// add is the clients' request hook: it runs for every request they send.
func (c *requestCounts) add(r reqlog.Request) {
	verb := r.Verb()
	if verb != "LIST" && verb != "WATCH" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n[r.Resource()] == nil {
		c.n[r.Resource()] = map[string]int{}
	}
	c.n[r.Resource()][verb]++
}

// reset starts a new count.
func (c *requestCounts) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n = map[string]map[string]int{}
}

// total is how many LIST and WATCH requests were counted.
func (c *requestCounts) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	total := 0
	for _, verbs := range c.n {
		total += verbs["LIST"] + verbs["WATCH"]
	}
	return total
}

// print writes the count as a small table of notes under title.
func (c *requestCounts) print(tl *timeline.Timeline, title lang.Text) {
	c.mu.Lock()
	defer c.mu.Unlock()
	tl.Note(title)
	// Padded by columns: the header may be Chinese.
	tl.Note(sayHeader, lang.Pad(tl.Sprintf(sayResource), 14), "LIST", "WATCH")
	resources := make([]string, 0, len(c.n))
	for r := range c.n {
		resources = append(resources, r)
	}
	slices.Sort(resources)
	for _, r := range resources {
		tl.Note(sayCounts, r, c.n[r]["LIST"], c.n[r]["WATCH"])
	}
	if len(resources) == 0 {
		tl.Note(sayNone)
	}
}
