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
