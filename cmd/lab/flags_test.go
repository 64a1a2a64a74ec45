package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestCheckPassesTheLabsFlags: a lab's Flags (lab 07's -race) reach go test,
// and the command the check prints for the learner has them too. go is a
// script here that only records its arguments.
func TestCheckPassesTheLabsFlags(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake go is a shell script")
	}
	dir := t.TempDir()
	argsFile := filepath.Join(dir, "args")
	fakeGo := filepath.Join(dir, "go")
	if err := os.WriteFile(fakeGo, []byte("#!/bin/sh\necho \"$@\" > '"+argsFile+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GO", fakeGo)
	l := &Lab{N: 9, Title: "t", Packages: []string{"./09-stage"}, Tests: []string{"TestA"}, Timeout: "5s", Flags: []string{"-race"}}

	var out bytes.Buffer
	if err := check(&out, dir, l, "", english); err == nil {
		t.Errorf("a check whose tests did not run passed:\n%s", out.String())
	}
	args, err := os.ReadFile(argsFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(" "+string(args), " -race ") {
		t.Errorf("go was run with %q: no -race", args)
	}
	if !strings.Contains(out.String(), "(go test -count=1 -race -run '^(TestA)$' ./09-stage)") {
		t.Errorf("the check does not print the command with -race:\n%s", out.String())
	}
}

// TestARaceLabRunsAgainUnderRaceOncePlainPasses: a lab with Race runs its
// graded tests plainly first and, once they pass, again with -race; one
// that fails plainly is not run again. go is a script that appends its
// arguments to a file and reports the graded test passing or failing.
func TestARaceLabRunsAgainUnderRaceOncePlainPasses(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake go is a shell script")
	}
	for _, outcome := range []string{"pass", "fail"} {
		dir := t.TempDir()
		argsFile := filepath.Join(dir, "args")
		fakeGo := filepath.Join(dir, "go")
		script := "#!/bin/sh\necho \"$@\" >> '" + argsFile + "'\n" +
			"echo '{\"Action\":\"run\",\"Test\":\"TestA\"}'\necho '{\"Action\":\"" + outcome + "\",\"Test\":\"TestA\"}'\n"
		if err := os.WriteFile(fakeGo, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv("GO", fakeGo)
		l := &Lab{N: 9, Title: "t", Packages: []string{"./09-stage"}, Tests: []string{"TestA"}, Timeout: "5s", Race: true}
		var out bytes.Buffer
		err := check(&out, dir, l, "", english)
		b, _ := os.ReadFile(argsFile)
		runs := strings.Split(strings.TrimSpace(string(b)), "\n")
		switch outcome {
		case "pass":
			if err != nil || len(runs) != 2 || strings.Contains(" "+runs[0]+" ", " -race ") || !strings.Contains(" "+runs[1]+" ", " -race ") {
				t.Errorf("a passing check: err=%v, go ran %q; want a plain run, then one with -race", err, runs)
			}
			if !strings.Contains(out.String(), "again under the race detector") {
				t.Errorf("a pass under -race does not say so:\n%s", out.String())
			}
		case "fail":
			if err == nil || len(runs) != 1 {
				t.Errorf("a failing check: err=%v, go ran %q; want one plain run and a failure", err, runs)
			}
		}
	}
}
