package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// events writes a go test -json stream: each event is action, test, output.
func events(t *testing.T, evs ...[3]string) *bytes.Reader {
	t.Helper()
	var b bytes.Buffer
	for _, e := range evs {
		line, err := json.Marshal(testEvent{Action: e[0], Package: "informer-from-scratch/05-processor", Test: e[1], Output: e[2]})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(line, '\n'))
	}
	return bytes.NewReader(b.Bytes())
}

// outputs are output events of one test, a line each.
func outputs(test string, lines ...string) [][3]string {
	var out [][3]string
	for _, l := range lines {
		out = append(out, [3]string{"output", test, l + "\n"})
	}
	return out
}

var fakeLab = &Lab{N: 5, Stage: "05-processor", Title: "fake", Tests: []string{"TestTop", "TestNext"}}

// A goroutine dump, as go test prints one: the learner's code waits in Add.
var dump = []string{
	"",
	"goroutine 7 [running]:",
	"testing.tRunner.func1()",
	"\t/usr/local/go/src/testing/testing.go:1977 +0x349",
	"",
	"goroutine 44 [chan send (durable), synctest bubble 2]:",
	"informer-from-scratch/05-processor.(*ProcessorListener).Add(...)",
	"\t/work/repo/05-processor/listener.go:182",
	"informer-from-scratch/05-processor.(*SharedProcessor).Distribute(0x1, {0x2, 0x3}, 0x0)",
	"\t/work/repo/05-processor/processor.go:183 +0x278",
	"",
	"goroutine 45 [chan send (durable), synctest bubble 2]:",
	"informer-from-scratch/05-processor.(*ProcessorListener).Add(...)",
	"\t/work/repo/05-processor/listener.go:182",
	"",
	"goroutine 46 [select, 2 minutes]:",
	"informer-from-scratch/05-processor.play.func1()",
	"\t/work/repo/05-processor/delivery_test.go:182 +0xaa",
}

func reportOf(t *testing.T, r *bytes.Reader) (*grade, string) {
	t.Helper()
	g := parseEvents(r, fakeLab)
	var out bytes.Buffer
	g.report(&out, fakeLab, english)
	return g, out.String()
}

func wantLines(t *testing.T, report string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(report, w) {
			t.Errorf("the report lacks %q:\n%s", w, report)
		}
	}
}

// A test that hangs until go test's timeout: the report names it and the
// case it hung in, and says where the stage's goroutines wait.
func TestAHungTestIsNamedWithItsCase(t *testing.T) {
	evs := [][3]string{
		{"run", "TestTop", ""},
		{"run", "TestTop/first_case", ""},
		{"pass", "TestTop/first_case", ""},
		{"run", "TestTop/second_case", ""},
	}
	evs = append(evs, outputs("TestTop/second_case", append([]string{
		"panic: test timed out after 30s",
		"\trunning tests:",
		"\t\tTestTop (30s)",
	}, dump...)...)...)
	evs = append(evs, [3]string{"fail", "", ""})
	g, report := reportOf(t, events(t, evs...))
	if g.passed(fakeLab) {
		t.Fatal("a check that timed out passed")
	}
	wantLines(t, report,
		"✗ TestTop: 1 of 2 cases fail",
		"✗ second case: "+english.hung,
		"panic: test timed out after 30s",
		"TestTop (30s)",
		"chan send (durable): (*ProcessorListener).Add at 05-processor/listener.go:182",
		"? TestNext: "+english.didNotRun,
		english.timedOut,
	)
	if strings.Count(report, "(*ProcessorListener).Add") != 1 {
		t.Errorf("two goroutines waiting at the same place make two lines:\n%s", report)
	}
	if strings.Contains(report, "delivery_test.go") || strings.Contains(report, "tRunner") {
		t.Errorf("the condensed dump shows goroutines outside the stage's code:\n%s", report)
	}
}

// A deadlock under synctest: the subtest fails, and the panic comes as the
// output of the test around it. The report shows the panic under the case,
// and no case without a name.
func TestADeadlockPanicIsShownWithTheCase(t *testing.T) {
	evs := [][3]string{
		{"run", "TestTop", ""},
		{"run", "TestTop/the_scenario", ""},
		{"output", "TestTop/the_scenario", "    some log line\n"},
		{"fail", "TestTop/the_scenario", ""},
	}
	evs = append(evs, outputs("TestTop", append([]string{"panic: deadlock: all goroutines in bubble are blocked [recovered, repanicked]"}, dump...)...)...)
	evs = append(evs, [3]string{"fail", "TestTop", ""}, [3]string{"fail", "", ""})
	g, report := reportOf(t, events(t, evs...))
	if g.timedOut {
		t.Error("a deadlock is taken for a timeout")
	}
	wantLines(t, report,
		"✗ the scenario\n",
		"some log line",
		"panic: deadlock: all goroutines in bubble are blocked",
		"chan send (durable): (*ProcessorListener).Add at 05-processor/listener.go:182",
	)
	if strings.Contains(report, "✗ \n") {
		t.Errorf("a case without a name:\n%s", report)
	}
}

func TestRepeatedLogLinesAreLeftOut(t *testing.T) {
	lines := []string{
		`I0101 00:00:01.600000   27632 shared_informer.go:1011] "Warning: resync period is too small"`,
		`E0101 00:00:00.000000   27632 panic.go:70] "Unhandled Error" err="unrecognized notification <nil>"`,
		`E0101 00:00:00.001000   27632 panic.go:70] "Unhandled Error" err="unrecognized notification <nil>"`,
		`E0101 00:00:00.002000   27632 panic.go:70] "Unhandled Error" err="unrecognized notification <nil>"`,
		"delivery_test.go:310: handlers saw different calls (-client-go +ours):",
		`E0101 00:00:00.003000   27632 panic.go:70] "Unhandled Error" err="unrecognized notification <nil>"`,
	}
	got := condenseLogs(lines, english)
	want := []string{lines[0], lines[1], "… (3 more log lines that repeat the ones above, left out)", lines[4]}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("condenseLogs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Subtests named with a slash are subtests in subtests: the cases counted
// are the innermost, as the failures listed are.
func TestCasesAreCountedAtTheDepthTheyFail(t *testing.T) {
	evs := [][3]string{{"run", "TestTop", ""}}
	for _, c := range []string{"a=1", "a=2"} {
		evs = append(evs, [3]string{"run", "TestTop/" + c, ""})
		for _, d := range []string{"b=1", "b=2"} {
			evs = append(evs, [3]string{"run", "TestTop/" + c + "/" + d, ""})
		}
	}
	evs = append(evs, [3]string{"fail", "TestTop/a=2/b=1", ""}, [3]string{"fail", "TestTop/a=2", ""}, [3]string{"fail", "TestTop", ""})
	_, report := reportOf(t, events(t, evs...))
	wantLines(t, report, "✗ TestTop: 1 of 4 cases fail", "✗ a=2/b=1")
}

// Past the failures shown in full, a failed test without cases is listed by
// its name alone, not followed by a case without a name.
func TestFailuresPastTheFirstHaveNoNamelessCase(t *testing.T) {
	lab := &Lab{N: 5, Stage: "05-processor", Title: "fake", Tests: []string{"TestA", "TestB", "TestC"}}
	var evs [][3]string
	for _, name := range lab.Tests {
		evs = append(evs, [3]string{"run", name, ""}, [3]string{"output", name, "    x_test.go:1: wrong\n"}, [3]string{"fail", name, ""})
	}
	g := parseEvents(events(t, evs...), lab)
	var out bytes.Buffer
	g.report(&out, lab, english)
	if strings.Contains(out.String(), "✗ \n") {
		t.Errorf("a case without a name:\n%s", out.String())
	}
	wantLines(t, out.String(), "✗ TestC\n")
}

// TestCondensePanicLooksPastAutogeneratedFrames: a nil interface reached
// through a wrapper panics in a method the compiler wrote, whose frame has
// no file ("<autogenerated>:1"); the stage's frame below it is still found.
func TestCondensePanicLooksPastAutogeneratedFrames(t *testing.T) {
	lines := []string{
		"panic: runtime error: invalid memory address or nil pointer dereference [recovered, repanicked]",
		"",
		"goroutine 15 [running, synctest bubble 2]:",
		"panic({0x3c7a3c0?, 0x63a9c40?})",
		"\t/usr/local/go/src/runtime/panic.go:860 +0x13a",
		"informer-from-scratch/06-sharedinformer.(*typedSharedIndexInformer[...]).GetIndexer()",
		"\t<autogenerated>:1 +0x35",
		"informer-from-scratch/07-factory/core/v1.(*podInformer).Lister(0xc000698a50)",
		"\t/work/repo/07-factory/core/v1/pod.go:127 +0x64",
	}
	got := strings.Join(condensePanic(lines, "07-factory"), "\n")
	if want := "running: (*podInformer).Lister at 07-factory/core/v1/pod.go:127"; !strings.Contains(got, want) {
		t.Errorf("condensed to\n%s\nwant it to say %q", got, want)
	}
}
