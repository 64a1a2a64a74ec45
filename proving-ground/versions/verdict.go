package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// row is one row of versions.md: the release it names and what proves it.
type row struct {
	// id is the row's anchor in versions.md (<a id="...">), the same in
	// both languages; chapters link to it.
	id string
	// minor names the release: the row says the change came in 1.minor.
	minor int
	// probes must each hold in v0.minor.0 and not in v0.(minor-1).0.
	probes []probe
}

func (r row) version() string { return "1." + strconv.Itoa(r.minor) }

// history is what one probe read in each release from 1.lo on.
type history struct {
	lo    int
	holds []bool
	saw   []string
}

func (h history) at(minor int) (holds bool, saw string) {
	i := minor - h.lo
	if i < 0 || i >= len(h.holds) {
		return false, "not read"
	}
	return h.holds[i], h.saw[i]
}

// changes are the releases where the probe came to hold: it does there and
// did not in the release before. Usually one; a gate turned on, off and on
// again has two.
func (h history) changes() []int {
	var out []int
	for i := 1; i < len(h.holds); i++ {
		if h.holds[i] && !h.holds[i-1] {
			out = append(out, h.lo+i)
		}
	}
	return out
}

// found says when the history shows the change, in versions.md's words.
func (h history) found() string {
	changes := h.changes()
	switch {
	case len(changes) > 0:
		var vs []string
		for _, m := range changes {
			vs = append(vs, "1."+strconv.Itoa(m))
		}
		return strings.Join(vs, ", ")
	case len(h.holds) > 0 && h.holds[0]:
		return "by 1." + strconv.Itoa(h.lo) // there already in the first release read
	}
	return "never"
}

// verdict is a row judged against what the releases show.
type verdict struct {
	row   row
	agree bool
	// found is the versions the probes show, one string when they all
	// show the same.
	found string
	// evidence is one line per probe: what it saw in the release before
	// and in the release named, and when it stopped holding again.
	evidence []string
}

// judge holds a row to its probes' histories (one per probe, in order). A
// row agrees when every probe came to hold in exactly the release the row
// names: absent in the one before, present in it.
func judge(r row, hs []history) verdict {
	v := verdict{row: r, agree: len(hs) > 0}
	var found []string
	for i, h := range hs {
		if !slices.Contains(h.changes(), r.minor) {
			v.agree = false
		}
		if f := h.found(); !slices.Contains(found, f) {
			found = append(found, f)
		}
		_, before := h.at(r.minor - 1)
		_, at := h.at(r.minor)
		line := fmt.Sprintf("%s  [1.%d: %s; 1.%d: %s", r.probes[i], r.minor-1, before, r.minor, at)
		for m := r.minor + 1; m < h.lo+len(h.holds); m++ {
			if holds, saw := h.at(m); !holds {
				line += fmt.Sprintf("; then 1.%d: %s", m, saw)
				break
			}
		}
		line += "]"
		v.evidence = append(v.evidence, line)
	}
	v.found = strings.Join(found, " / ")
	return v
}
