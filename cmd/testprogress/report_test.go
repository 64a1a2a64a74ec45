package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The streams in testdata are go test -json's, recorded from a small
// module (example.com/tp) with go1.26: a package that passes beside one
// without tests, a failing subtest beside passing ones, a compile error,
// and a panic.

var t0 = time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)

// replay feeds a recorded stream to a report and finishes it, and returns
// what it printed on stdout and stderr.
func replay(t *testing.T, files ...string) (stdout, stderr string) {
	t.Helper()
	var out, errOut strings.Builder
	r := newReport(&out, &errOut, "example.com/tp", t0)
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			r.line(line, t0)
		}
	}
	r.finish()
	return out.String(), errOut.String()
}

func TestPassingPackagesPrintTheirSummaryLineOnly(t *testing.T) {
	stdout, stderr := replay(t, "pass.jsonl")
	// Plain go test's lines for the same packages: nothing of the passing
	// test's log, its stdout, or the skipped test's reason.
	want := "ok  \texample.com/tp/pass\t(cached)\n" +
		"?   \texample.com/tp/notests\t[no test files]\n"
	if diff := cmp.Diff(want, stdout); diff != "" || stderr != "" {
		t.Errorf("stdout (-want +got):\n%s\nstderr: %q", diff, stderr)
	}
}

func TestAFailingPackagePrintsItsFailingTestsWhole(t *testing.T) {
	stdout, _ := replay(t, "fail.jsonl")
	// The failed test and subtest as go test -v prints them, without the
	// tests that passed (TestGood, TestBad/sub-ok); then the package's
	// lines, and go test's last FAIL.
	want := strings.Join([]string{
		"=== RUN   TestBad",
		"    f_test.go:7: before the failure",
		"=== RUN   TestBad/sub-bad",
		"    f_test.go:9: want 1, got 2",
		"--- FAIL: TestBad/sub-bad (0.00s)",
		"--- FAIL: TestBad (0.00s)",
		"FAIL",
		"FAIL\texample.com/tp/fail\t0.016s",
		"FAIL",
	}, "\n") + "\n"
	if diff := cmp.Diff(want, stdout); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
}

func TestABuildFailurePrintsTheCompilerOnStderr(t *testing.T) {
	stdout, stderr := replay(t, "build.jsonl")
	if want := "FAIL\texample.com/tp/build [build failed]\nFAIL\n"; stdout != want {
		t.Errorf("stdout %q, want %q", stdout, want)
	}
	want := "# example.com/tp/build [example.com/tp/build.test]\n" +
		"build/b.go:3:23: cannot use \"not an int\" (untyped string constant) as int value in return statement\n"
	if stderr != want {
		t.Errorf("stderr %q, want the compiler's lines %q", stderr, want)
	}
}

func TestAPanicPrintsItsWholeTrace(t *testing.T) {
	stdout, _ := replay(t, "panic.jsonl")
	for _, want := range []string{
		"--- FAIL: TestPanics (0.00s)\npanic: assignment to entry in nil map",
		"goroutine 21 [running]:\n",
		"example.com/tp/panicky.TestPanics(0x3f01e59a488?)\n\t/home/learner/tp/panicky/p_test.go:6 +0x28\n",
		"created by testing.(*T).Run in goroutine 1\n\t/usr/local/go/src/testing/testing.go:2101 +0x4c5\n",
		"FAIL\texample.com/tp/panicky\t0.013s\nFAIL\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "TestFirst") {
		t.Errorf("stdout shows the test that passed:\n%s", stdout)
	}
}

// TestPackagesPrintAsTheyEnd: with several packages in one stream, each
// prints whole when it ends, and the last FAIL comes once, at the end.
func TestPackagesPrintAsTheyEnd(t *testing.T) {
	stdout, _ := replay(t, "fail.jsonl", "pass.jsonl", "panic.jsonl")
	var summaries []string
	for _, line := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(line, "ok  \t") || strings.HasPrefix(line, "?   \t") || strings.HasPrefix(line, "FAIL\t") || line == "FAIL" {
			summaries = append(summaries, strings.Fields(line)[0]+" "+lastField(line))
		}
	}
	want := []string{"FAIL FAIL", "FAIL 0.016s", "ok (cached)", "? files]", "FAIL 0.013s", "FAIL FAIL"}
	if diff := cmp.Diff(want, summaries); diff != "" {
		t.Errorf("the packages' lines (-want +got):\n%s\n%s", diff, stdout)
	}
}

func lastField(line string) string {
	f := strings.Fields(line)
	return f[len(f)-1]
}

// TestAnUnfinishedStreamIsPrinted: go test stopped (Ctrl-C) while a test
// ran: what the package printed is shown, as a failure.
func TestAnUnfinishedStreamIsPrinted(t *testing.T) {
	var out strings.Builder
	r := newReport(&out, &out, "example.com/tp", t0)
	for _, line := range []string{
		`{"Action":"start","Package":"example.com/tp/slow"}`,
		`{"Action":"run","Package":"example.com/tp/slow","Test":"TestSlow"}`,
		`{"Action":"output","Package":"example.com/tp/slow","Test":"TestSlow","Output":"=== RUN   TestSlow\n"}`,
		`{"Action":"output","Package":"example.com/tp/slow","Test":"TestSlow","Output":"    s_test.go:5: waiting\n"}`,
		`not JSON: printed as it is`,
	} {
		r.line(line, t0)
	}
	r.finish()
	want := "not JSON: printed as it is\n=== RUN   TestSlow\n    s_test.go:5: waiting\nFAIL\n"
	if got := out.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestSilenceSaysWhatIsRunning: after 15 seconds without a line, a line
// names the packages running, the longest first, with how long each has
// run; then again every 15 seconds while the silence lasts.
func TestSilenceSaysWhatIsRunning(t *testing.T) {
	var out strings.Builder
	r := newReport(&out, &out, "example.com/tp", t0)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	event := func(d time.Duration, action, pkg string) {
		r.line(fmt.Sprintf(`{"Action":%q,"Package":"example.com/tp/%s"}`, action, pkg), at(d))
	}
	output := func(d time.Duration, pkg, text string) {
		r.line(fmt.Sprintf(`{"Action":"output","Package":"example.com/tp/%s","Output":%q}`, pkg, text), at(d))
	}
	var want []string
	expect := func(lines ...string) {
		t.Helper()
		want = append(want, lines...)
		if diff := cmp.Diff(strings.Join(want, ""), out.String()); diff != "" {
			t.Fatalf("output (-want +got):\n%s", diff)
		}
	}
	r.tick(at(15 * time.Second))
	expect("still building test binaries; 0 packages done\n")
	event(16*time.Second, "start", "slow")
	event(20*time.Second, "start", "slower")
	r.tick(at(29 * time.Second))
	expect() // 14 seconds since the last line
	r.tick(at(30 * time.Second))
	expect("still testing: ./slow (14s), ./slower (10s); 0 packages done\n")
	r.tick(at(44 * time.Second))
	expect()
	r.tick(at(45 * time.Second))
	expect("still testing: ./slow (29s), ./slower (25s); 0 packages done\n")
	output(47*time.Second, "slow", "ok  \texample.com/tp/slow\t31.0s\n")
	event(47*time.Second, "pass", "slow")
	expect("ok  \texample.com/tp/slow\t31.0s\n")
	r.tick(at(61 * time.Second))
	expect()
	r.tick(at(62 * time.Second))
	expect("still testing: ./slower (42s); 1 package done\n")
	for _, p := range []string{"a", "b", "c", "d"} {
		event(63*time.Second, "start", p)
	}
	r.tick(at(80 * time.Second))
	expect("still testing: ./slower (1m0s), ./a (17s), ./b (17s), and 2 more; 1 package done\n")
}

func TestPackagesOutsideTheModuleKeepTheirPath(t *testing.T) {
	r := newReport(nil, nil, "example.com/tp", t0)
	for pkg, want := range map[string]string{
		"example.com/tp":          ".",
		"example.com/tp/a/b":      "./a/b",
		"example.com/tpx":         "example.com/tpx",
		"golang.org/x/tools/go/a": "golang.org/x/tools/go/a",
	} {
		if got := r.short(pkg); got != want {
			t.Errorf("short(%q) = %q, want %q", pkg, got, want)
		}
	}
}

// TestRunPassesItsArgumentsAndGoTestsStatus runs the command with a
// stand-in for go that prints a recorded stream and fails: the arguments
// reach go test after -json, and its status is the command's.
func TestRunPassesItsArgumentsAndGoTestsStatus(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in is a shell script")
	}
	stream, err := filepath.Abs(filepath.Join("testdata", "fail.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	fakeGo := filepath.Join(t.TempDir(), "go")
	script := fmt.Sprintf("#!/bin/sh\necho \"args: $*\" >&2\ncat %q\nexit 3\n", stream)
	if err := os.WriteFile(fakeGo, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GO", fakeGo)
	var out, errOut strings.Builder
	code := run([]string{"-race", "-timeout", "30m", "./..."}, &out, &errOut)
	if code != 3 {
		t.Errorf("exit status %d, want go test's 3", code)
	}
	if want := "args: test -json -race -timeout 30m ./...\n"; errOut.String() != want {
		t.Errorf("go test got %q, want %q", errOut.String(), want)
	}
	if !strings.Contains(out.String(), "    f_test.go:9: want 1, got 2\n") || !strings.HasSuffix(out.String(), "FAIL\texample.com/tp/fail\t0.016s\nFAIL\n") {
		t.Errorf("stdout:\n%s", out.String())
	}
}

func TestModulePath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "go.mod")
	os.WriteFile(path, []byte("// a comment\nmodule informer-from-scratch\n\ngo 1.26.0\n"), 0o644)
	if got := modulePath(path); got != "informer-from-scratch" {
		t.Errorf("modulePath = %q", got)
	}
	if got := modulePath(filepath.Join(t.TempDir(), "none")); got != "" {
		t.Errorf("modulePath of no file = %q", got)
	}
}

// TestSlowestTableListsTheLongestPackagesFirst: with slowest set, finish
// ends with the packages that ran longest, longest first, each with its
// time, and how long go test ran; without it, nothing more is printed.
func TestSlowestTableListsTheLongestPackagesFirst(t *testing.T) {
	var out strings.Builder
	r := newReport(&out, &out, "example.com/tp", t0)
	r.slowest = 2
	for i, name := range []string{"a", "b", "c"} {
		start := t0.Add(time.Duration(i) * time.Second)
		r.line(fmt.Sprintf(`{"Action":"start","Package":"example.com/tp/%s"}`, name), start)
		r.line(fmt.Sprintf(`{"Action":"output","Package":"example.com/tp/%s","Output":"ok  \texample.com/tp/%s\t0.1s\n"}`, name, name), start)
		r.line(fmt.Sprintf(`{"Action":"pass","Package":"example.com/tp/%s"}`, name), start.Add(time.Duration(10*(i+1))*time.Second))
	}
	r.finish()
	want := "slowest packages (of 3; go test ran for 32s):\n      30s  ./c\n      20s  ./b\n"
	if !strings.HasSuffix(out.String(), want) {
		t.Errorf("the run ends\n%s\nwant it to end\n%s", out.String(), want)
	}
}
