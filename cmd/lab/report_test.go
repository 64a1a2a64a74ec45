package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestReportNamesEveryFailure: past the failures shown in full, each one is
// still listed by name; a failed test without subtests is named once, on
// its own line, never followed by an empty "✗".
func TestReportNamesEveryFailure(t *testing.T) {
	l := &Lab{N: 9, Title: "t", Tests: []string{"TestA", "TestB", "TestC"}}
	var events strings.Builder
	for _, name := range l.Tests {
		events.WriteString(`{"Action":"run","Test":"` + name + `"}` + "\n")
		events.WriteString(`{"Action":"output","Test":"` + name + `","Output":"    x_test.go:1: ` + name + ` differs\n"}` + "\n")
		events.WriteString(`{"Action":"fail","Test":"` + name + `"}` + "\n")
	}
	g := parseEvents(strings.NewReader(events.String()), l)
	var out bytes.Buffer
	g.report(&out, l, english)
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.TrimSpace(line) == "✗" {
			t.Errorf("the report has a failure without a name:\n%s", out.String())
			break
		}
	}
	for _, name := range l.Tests {
		if !strings.Contains(out.String(), "✗ "+name) {
			t.Errorf("the report does not name %s:\n%s", name, out.String())
		}
	}
}

// TestReportSaysATestTimedOut: go test -json puts the timeout's panic in the
// output of the test (or case) that was running, which never reports a
// failure. The report must say the tests timed out, name that case with the
// panic's line, and leave out the goroutine dump.
func TestReportSaysATestTimedOut(t *testing.T) {
	l := &Lab{N: 9, Title: "t", Tests: []string{"TestA", "TestB"}}
	events := `{"Action":"run","Test":"TestA"}
{"Action":"output","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"run","Test":"TestA/case_one"}
{"Action":"output","Test":"TestA/case_one","Output":"panic: test timed out after 2m0s\n"}
{"Action":"output","Test":"TestA/case_one","Output":"\n"}
{"Action":"output","Test":"TestA/case_one","Output":"goroutine 7 [running]:\n"}
{"Action":"output","Test":"TestA/case_one","Output":"testing.(*M).startAlarm.func1()\n"}
{"Action":"output","Output":"FAIL\tx\t120.0s\n"}
{"Action":"fail","Elapsed":120}
`
	g := parseEvents(strings.NewReader(events), l)
	if !g.timedOut {
		t.Fatal("a timeout in a test's output was not noticed")
	}
	var out bytes.Buffer
	g.report(&out, l, english)
	for _, want := range []string{"✗ TestA", "✗ case one", "panic: test timed out after 2m0s", english.timedOut} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report does not say %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "goroutine 7") {
		t.Errorf("the report shows the goroutine dump:\n%s", out.String())
	}
}

// TestReportShowsAPanicPastTheFailuresShownInFull: a test that panics ends
// the test binary, and the tests after it are listed as "did not run ...
// see above". Past the failures shown in full, the panic must still be
// above them, condensed.
func TestReportShowsAPanicPastTheFailuresShownInFull(t *testing.T) {
	l := &Lab{N: 9, Title: "t", Stage: "09-stage", Tests: []string{"TestA", "TestB", "TestC", "TestD"}}
	var events strings.Builder
	for _, name := range []string{"TestA", "TestB"} {
		events.WriteString(`{"Action":"run","Test":"` + name + `"}` + "\n")
		events.WriteString(`{"Action":"output","Test":"` + name + `","Output":"    x_test.go:1: ` + name + ` differs\n"}` + "\n")
		events.WriteString(`{"Action":"fail","Test":"` + name + `"}` + "\n")
	}
	events.WriteString(`{"Action":"run","Test":"TestC"}
{"Action":"output","Test":"TestC","Output":"panic: runtime error: invalid memory address or nil pointer dereference [recovered, repanicked]\n"}
{"Action":"output","Test":"TestC","Output":"\n"}
{"Action":"output","Test":"TestC","Output":"goroutine 15 [running]:\n"}
{"Action":"output","Test":"TestC","Output":"x/09-stage/sub.(*thing).Lister(0xc000698a50)\n"}
{"Action":"output","Test":"TestC","Output":"\t/r/09-stage/sub/thing.go:127 +0x64\n"}
{"Action":"fail","Test":"TestC"}
`)
	g := parseEvents(strings.NewReader(events.String()), l)
	var out bytes.Buffer
	g.report(&out, l, english)
	for _, want := range []string{"✗ TestC", "panic: runtime error: invalid memory address", "running: (*thing).Lister at 09-stage/sub/thing.go:127", "? TestD"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report does not say %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "goroutine 15") {
		t.Errorf("the report shows the goroutine dump:\n%s", out.String())
	}
}

// TestReportCountsTestsThatDidNotRunApart: a panic in one graded test stops
// go test, and the tests after it never run; the last line says how many
// failed and how many did not run, not that all of them failed. A pass that
// was checked again under -race says so.
func TestReportCountsTestsThatDidNotRunApart(t *testing.T) {
	l := &Lab{N: 9, Title: "t", Tests: []string{"TestA", "TestB", "TestC", "TestD"}}
	stream := `{"Action":"run","Test":"TestA"}
{"Action":"output","Test":"TestA","Output":"panic: boom\n"}
{"Action":"fail","Test":"TestA"}
`
	var out bytes.Buffer
	parseEvents(strings.NewReader(stream), l).report(&out, l, english)
	if want := "Not yet: 1 of 4 graded tests fail, and 3 did not run"; !strings.Contains(out.String(), want) {
		t.Errorf("the report does not say %q:\n%s", want, out.String())
	}
	var pass strings.Builder
	for _, name := range l.Tests {
		pass.WriteString(`{"Action":"run","Test":"` + name + `"}` + "\n" + `{"Action":"pass","Test":"` + name + `"}` + "\n")
	}
	g := parseEvents(strings.NewReader(pass.String()), l)
	g.raced = true
	out.Reset()
	g.report(&out, l, english)
	if want := "and again under the race detector"; !strings.Contains(out.String(), want) {
		t.Errorf("a pass checked under -race does not say %q:\n%s", want, out.String())
	}
}
