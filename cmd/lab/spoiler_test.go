package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoSolutionLinesInTheLabTool: a learner who greps the tree for a line
// they half remember (a log message, a call) while writing a lab must not
// find the solution in the lab's own files: the tool, its hints, its wrong
// answers and its list of equivalent mutants. Every line of a marked body
// that says something (not a brace or a bare return) is looked for, as grep
// would, in every file under cmd/lab. The saved solution and attempts are
// inside the git directory, which this does not search (see state.go).
func TestNoSolutionLinesInTheLabTool(t *testing.T) {
	var files []string
	filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, path)
		}
		return err
	})
	contents := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		contents[f] = string(b)
	}
	for _, l := range labs {
		bodies, err := l.solutionBodies(root)
		if err != nil {
			t.Fatal(err)
		}
		for fn, body := range bodies {
			for _, line := range strings.Split(body, "\n") {
				line = strings.TrimSpace(line)
				if trivialLine(line) || len(line) < 12 {
					continue
				}
				for _, f := range files {
					if found(contents[f], line, strings.HasSuffix(f, ".wrong")) {
						t.Errorf("lab %d: a line of %s is in %s, where a learner's grep finds it: %s", l.N, fn, f, line)
					}
				}
			}
		}
	}
}

// found says whether line is in content: anywhere in it, as grep finds a
// string, or for a wrong answer as one of its lines (a wrong line may hold a
// solution's line inside it, "if err := c.sync(...); err != nil {", and is
// still a wrong line).
func found(content, line string, wholeLines bool) bool {
	if !wholeLines {
		return strings.Contains(content, line)
	}
	for _, l := range strings.Split(content, "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(l, "+"))
		if l == line || (squeeze(line) != "" && squeeze(l) == squeeze(line)) {
			return true
		}
	}
	return false
}
