package main

import (
	"os"
	"regexp"
	"strings"
)

// The hints are the chapter's: its Lab section holds them as a ladder of
// collapsed blocks, from a nudge to nearly the answer,
//
//	<details>
//	<summary>Hint 1: what the first list is for</summary>
//
//	text...
//
//	</details>
//
// (提示 in docs/zh), so that a reader of the chapter and a learner at the
// terminal get the same hints, from one place in each language.

var detailsRE = regexp.MustCompile(`(?s)<details>\s*<summary>(.*?)</summary>(.*?)</details>`)

// hint is one step of the ladder.
type hint struct {
	Title string
	Body  string
}

// hintsOf reads the hints of the chapter at path: the <details> blocks whose
// summary starts with "Hint" or "提示".
func hintsOf(path string) ([]hint, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []hint
	for _, m := range detailsRE.FindAllStringSubmatch(string(b), -1) {
		title := strings.TrimSpace(m[1])
		if !strings.HasPrefix(title, "Hint") && !strings.HasPrefix(title, "提示") {
			continue
		}
		out = append(out, hint{Title: title, Body: strings.TrimSpace(m[2])})
	}
	return out, nil
}
