package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// event is one line of go test -json: cmd/test2json's TestEvent, and the
// build events the go command adds (go doc cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	// ImportPath names the package of a build-output or build-fail event.
	ImportPath string
}

// report turns the events into plain go test's lines, a package at a time
// as each ends, and into progress lines during silences. It is fed from
// one goroutine; its clock is the one its callers pass, so a test can
// drive it.
type report struct {
	out, errOut io.Writer
	module      string
	// last is when the last line was printed: a progress line comes after
	// silence without one.
	last    time.Time
	pkgs    map[string]*pkgRun
	running []string // started and not ended, in the order they started
	done    int
	failed  int
	// slowest, when above 0, is how many of the slowest packages finish
	// lists with their times, so that the loop's time can be read off.
	slowest int
	took    map[string]time.Duration
	began   time.Time
}

// pkgRun is one package's test run while it goes.
type pkgRun struct {
	start time.Time
	lines []outLine
	// result is each test's end: pass, fail or skip ("" while it runs).
	result map[string]string
}

// outLine is a line of output and the test it belongs to ("" for the
// package's own lines: its ok or FAIL line, a panic after every test).
type outLine struct {
	test, text string
}

func newReport(out, errOut io.Writer, module string, now time.Time) *report {
	return &report{out: out, errOut: errOut, module: module, last: now, pkgs: map[string]*pkgRun{},
		took: map[string]time.Duration{}, began: now}
}

// line takes one line of go test -json's standard output. A line that is
// not an event (go test printed it itself) is printed as it is.
func (r *report) line(text string, now time.Time) {
	var e event
	if !strings.HasPrefix(text, "{") || json.Unmarshal([]byte(text), &e) != nil {
		r.print(r.out, text+"\n", now)
		return
	}
	r.event(e, now)
}

func (r *report) event(e event, now time.Time) {
	switch e.Action {
	case "build-output":
		// Compiler errors: plain go test prints them on stderr as they
		// come, before the package's FAIL line.
		r.print(r.errOut, e.Output, now)
	case "start":
		r.pkg(e.Package, now)
		r.running = append(r.running, e.Package)
	case "output":
		p := r.pkg(e.Package, now)
		p.lines = append(p.lines, outLine{e.Test, e.Output})
	case "pass", "fail", "skip":
		p := r.pkg(e.Package, now)
		if e.Test != "" {
			p.result[e.Test] = e.Action
			return
		}
		r.end(e.Package, e.Action == "fail", now)
	}
}

// pkg returns the run of a package, started now if no start event came.
func (r *report) pkg(name string, now time.Time) *pkgRun {
	p := r.pkgs[name]
	if p == nil {
		p = &pkgRun{start: now, result: map[string]string{}}
		r.pkgs[name] = p
	}
	return p
}

// end prints a package that ended: its summary line if it passed (as
// plain go test does), everything but its passing tests if it failed.
func (r *report) end(name string, failed bool, now time.Time) {
	p := r.pkgs[name]
	delete(r.pkgs, name)
	r.took[name] = now.Sub(p.start)
	for i, n := range r.running {
		if n == name {
			r.running = append(r.running[:i], r.running[i+1:]...)
			break
		}
	}
	r.done++
	var b strings.Builder
	for _, l := range p.lines {
		switch {
		case failed && l.test == "":
			b.WriteString(l.text)
		case failed:
			if res := p.result[l.test]; res != "pass" && res != "skip" {
				b.WriteString(l.text) // failed, or never ended: a panic, a timeout
			}
		case l.test == "" && isSummary(l.text):
			b.WriteString(l.text)
		}
	}
	if failed {
		r.failed++
	}
	r.print(r.out, b.String(), now)
}

// isSummary reports whether a package's own line is the one plain go test
// prints for a package that passed: "ok  \t..." or "?   \t...".
func isSummary(line string) bool {
	return strings.HasPrefix(line, "ok  \t") || strings.HasPrefix(line, "?   \t")
}

// tick prints a progress line if nothing was printed for silence.
func (r *report) tick(now time.Time) {
	if now.Sub(r.last) < silence {
		return
	}
	r.print(r.out, r.progress(now)+"\n", now)
}

// progress says what go test is waiting for: the packages running, the
// longest first, or the build of test binaries when none runs.
func (r *report) progress(now time.Time) string {
	done := fmt.Sprintf("%d packages done", r.done)
	if r.done == 1 {
		done = "1 package done"
	}
	if len(r.running) == 0 {
		return "still building test binaries; " + done
	}
	const shown = 3
	var names []string
	for _, name := range r.running[:min(len(r.running), shown)] {
		names = append(names, fmt.Sprintf("%s (%s)", r.short(name), now.Sub(r.pkgs[name].start).Round(time.Second)))
	}
	if more := len(r.running) - shown; more > 0 {
		names = append(names, fmt.Sprintf("and %d more", more))
	}
	return "still testing: " + strings.Join(names, ", ") + "; " + done
}

// short names a package of the module as go test's command line does:
// ./06-sharedinformer/demo.
func (r *report) short(pkg string) string {
	if r.module == "" {
		return pkg
	}
	if pkg == r.module {
		return "."
	}
	if rest, ok := strings.CutPrefix(pkg, r.module+"/"); ok {
		return "./" + rest
	}
	return pkg
}

// finish prints what the stream left unfinished, should go test have
// stopped before every package ended (Ctrl-C), then go test's last line
// when a package failed.
func (r *report) finish() {
	for _, name := range append([]string(nil), r.running...) {
		r.end(name, true, r.last)
	}
	var unstarted []string // output without a start event
	for name := range r.pkgs {
		unstarted = append(unstarted, name)
	}
	slices.Sort(unstarted)
	for _, name := range unstarted {
		r.end(name, true, r.last)
	}
	if r.failed > 0 {
		r.print(r.out, "FAIL\n", r.last)
	}
	if r.slowest > 0 {
		r.print(r.out, r.slowestTable(), r.last)
	}
}

// slowestTable lists the packages that took longest, from their first
// event to their last (their test run; the build before it is not in it),
// and the whole run's time.
func (r *report) slowestTable() string {
	names := make([]string, 0, len(r.took))
	for name := range r.took {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int {
		if c := r.took[b] - r.took[a]; c != 0 {
			return int(c / time.Millisecond)
		}
		return strings.Compare(a, b)
	})
	var b strings.Builder
	fmt.Fprintf(&b, "slowest packages (of %d; go test ran for %s):\n", len(names), r.last.Sub(r.began).Round(time.Second))
	for _, name := range names[:min(len(names), r.slowest)] {
		fmt.Fprintf(&b, "  %7s  %s\n", r.took[name].Round(time.Second), r.short(name))
	}
	return b.String()
}

func (r *report) print(w io.Writer, s string, now time.Time) {
	if s == "" {
		return
	}
	io.WriteString(w, s)
	r.last = now
}
