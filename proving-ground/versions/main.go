package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
)

func main() {
	verbose := flag.Bool("v", false, "print what every probe saw in every release, not only in the two a row names")
	flag.Parse()
	ok, err := run(os.Stdout, *verbose)
	if err != nil {
		fmt.Fprintln(os.Stderr, "versions:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

// run downloads the releases, judges every row and prints the table. ok is
// false when a row's version disagrees with what the releases show.
func run(out *os.File, verbose bool) (ok bool, err error) {
	// Each module is read from the release before its earliest row on.
	lo := map[string]int{}
	for _, r := range rows {
		for _, p := range r.probes {
			if m, seen := lo[p.module()]; !seen || r.minor-1 < m {
				lo[p.module()] = r.minor - 1
			}
		}
	}
	dirs := map[string]map[int]string{}
	for _, module := range []string{clientGo, apiserver} {
		if _, used := lo[module]; !used {
			continue
		}
		fmt.Fprintf(out, "Reading %s v0.%d.0 to v0.%d.0 (downloaded once, into the module cache)\n", module, lo[module], latestMinor)
		if dirs[module], err = download(module, lo[module]); err != nil {
			return false, err
		}
	}
	fmt.Fprintln(out)

	width := len("ROW")
	for _, r := range rows {
		width = max(width, len(r.id))
	}
	fmt.Fprintf(out, "%-*s  %-7s  %s\n", width, "ROW", "CLAIMED", "FOUND")
	var wrong []string
	for _, r := range rows {
		var hs []history
		for _, p := range r.probes {
			h := history{lo: lo[p.module()]}
			for m := h.lo; m <= latestMinor; m++ {
				holds, saw, err := p.read(dirs[p.module()][m], m)
				if err != nil {
					return false, fmt.Errorf("row %s: %s in v0.%d.0: %v", r.id, p, m, err)
				}
				h.holds, h.saw = append(h.holds, holds), append(h.saw, saw)
			}
			hs = append(hs, h)
		}
		v := judge(r, hs)
		mark := ""
		if !v.agree {
			mark = "  ← disagrees"
			wrong = append(wrong, r.id)
		}
		fmt.Fprintf(out, "%-*s  %-7s  %s%s\n", width, r.id, r.version(), v.found, mark)
		for i, e := range v.evidence {
			fmt.Fprintf(out, "    %s\n", e)
			if verbose {
				for j, saw := range hs[i].saw {
					fmt.Fprintf(out, "        1.%d: %s\n", hs[i].lo+j, saw)
				}
			}
		}
	}
	fmt.Fprintln(out)
	if len(wrong) > 0 {
		slices.Sort(wrong)
		fmt.Fprintf(out, "%d of %d rows disagree with the releases: %v\n", len(wrong), len(rows), wrong)
		fmt.Fprintln(out, "Correct the row's version in rows.go and in docs/{en,zh}/versions.md (and the chapters that link to it), or its probes.")
		return false, nil
	}
	fmt.Fprintf(out, "All %d rows proved: each change is absent in the release before the one its row names and present in that one.\n", len(rows))
	return true, nil
}
