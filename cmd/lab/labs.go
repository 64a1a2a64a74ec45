package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Lab is one build-it-yourself exercise: the functions of a stage a learner
// writes (marked //lab:NN in the stage's code), the stage's differential
// tests that grade them, and its page (docs/LANG/labs/STAGE.md). Its hints
// are in hints/, its wrong answers in testdata/labNN.
type Lab struct {
	N       int
	Stage   string // the stage's directory
	Chapter string // the chapter's file name, in docs/en and docs/zh
	Title   string
	Minutes string // how long it takes a participant who read the chapter
	// TODO states, for each marked function, its contract: what must be
	// true when it returns, what it must never do, the locks held on entry,
	// the client-go function it mirrors. Not the steps: those are the last
	// rung of the function's hints. The skeleton's comment; every marked
	// function has one, and only they do.
	TODO map[string]string
	// Packages hold the graded tests; Tests are their top-level names.
	Packages []string
	Tests    []string
	// Timeout bounds one check; a body that never returns fails, not hangs.
	Timeout string
	// Flags are go test flags the check adds.
	Flags []string
	// Race: once the graded tests pass, the check runs them again under
	// -race, for a lab whose functions take locks (a set touched without
	// the lock is a data race a plain run may or may not show). The plain
	// run first, since the race build takes longer: a learner whose code
	// fails hears it sooner.
	Race bool
	// Expect are phrases the graded tests print on the skeleton: make test
	// checks a learner who starts the lab sees them (the scenario, both sides).
	Expect []string
}

// labs are the labs, one per stage that has one, in stage order.
var labs = []*Lab{lab01, lab02, lab03, lab04, lab05, lab06, lab07, lab08}

// lookup returns lab n, or an error listing the labs there are.
func lookup(n int) (*Lab, error) {
	for _, l := range labs {
		if l.N == n {
			return l, nil
		}
	}
	var have []string
	for _, l := range labs {
		have = append(have, fmt.Sprint(l.N))
	}
	return nil, fmt.Errorf("there is no lab %d: the labs are %s (make lab lists them)", n, strings.Join(have, ", "))
}

// todo is the TODO of a marked function.
func (l *Lab) todo(name string) string {
	if t, ok := l.TODO[name]; ok {
		return t
	}
	return "write this function: its doc comment says what it must do."
}

// marked lists the lab's functions as the stage's markers say, in file
// order, and checks them against TODO.
func (l *Lab) marked(root string) ([]marked, error) {
	all, err := findMarked(root, l.Stage)
	if err != nil {
		return nil, err
	}
	funcs := all[l.N]
	if len(funcs) == 0 {
		return nil, fmt.Errorf("lab %d: no function in %s is marked //lab:%02d", l.N, l.Stage, l.N)
	}
	for other := range all {
		if other != l.N {
			return nil, fmt.Errorf("%s has functions marked //lab:%02d, but it is lab %d's stage", l.Stage, other, l.N)
		}
	}
	// In the order of l.Packages (the queue before the controller that
	// uses it), then by file; within a file, in source order.
	sort.SliceStable(funcs, func(i, j int) bool {
		if pi, pj := l.packageRank(funcs[i].File), l.packageRank(funcs[j].File); pi != pj {
			return pi < pj
		}
		return funcs[i].File < funcs[j].File
	})
	return funcs, nil
}

// packageRank is the place in l.Packages of the package file belongs to
// (len(l.Packages) when none lists it).
func (l *Lab) packageRank(file string) int {
	dir := filepath.ToSlash(filepath.Dir(file))
	for i, p := range l.Packages {
		if strings.TrimPrefix(p, "./") == dir {
			return i
		}
	}
	return len(l.Packages)
}

// files are the files the lab rewrites.
func (l *Lab) files(root string) ([]string, error) {
	funcs, err := l.marked(root)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	for _, f := range funcs {
		if !seen[f.File] {
			seen[f.File] = true
			out = append(out, f.File)
		}
	}
	return out, nil
}

// goTestArgsWith are go test's arguments for a check with the given flags
// (the lab's own, or a fixture's), but for -json, -timeout, an overlay and
// the packages.
func (l *Lab) goTestArgsWith(flags []string) []string {
	return slices.Concat([]string{"-count=1"}, flags, []string{"-run", l.runPattern()})
}

// runPattern is the -run pattern that selects exactly the graded tests.
func (l *Lab) runPattern() string {
	return "^(" + strings.Join(l.Tests, "|") + ")$"
}

// page is the lab's page, relative to docs/LANG.
func (l *Lab) page() string { return "labs/" + l.Stage + ".md" }

// pagePath is the lab's page in lang's docs.
func (l *Lab) pagePath(root, lang string) string {
	return filepath.Join(root, "docs", lang, l.page())
}
