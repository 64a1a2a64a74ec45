package main

import (
	"strings"
	"testing"
)

// A stage with only runs the tests it names, whatever exclusions.txt says of
// them (those lines are the other stage's), and none of the file's others; a
// name none of its files declares is refused.
func TestStageOnly(t *testing.T) {
	ex, err := readExclusions(writeExclusions(t, "file tools/cache/wait_test.go\nexclude TestSyncResult\nbecause it is stage 07's.\n"))
	if err != nil {
		t.Fatal(err)
	}
	const file = "tools/cache/wait_test.go"
	lower := stage{dir: "06-sharedinformer", tests: []string{file}}
	upper := stage{dir: "07-factory", tests: []string{file}, only: []string{"TestSyncResult"}}
	for _, c := range []struct {
		s            stage
		test         string
		here, exempt bool
	}{
		{lower, "TestWaitFor", true, true},
		{lower, "TestSyncResult", true, false},
		{upper, "TestSyncResult", true, true},
		{upper, "TestWaitFor", false, true},
	} {
		if got := c.s.runsHere(c.test); got != c.here {
			t.Errorf("%s runsHere(%s) = %v, want %v", c.s.dir, c.test, got, c.here)
		}
		if got := c.s.excluded(ex, file, c.test) == nil; got != c.exempt {
			t.Errorf("%s excluded(%s) == nil is %v, want %v", c.s.dir, c.test, got, c.exempt)
		}
	}

	b := &built{stage: upper, prepared: &prepared{tests: map[string][]string{file: {"TestSyncResult", "TestWaitFor"}}}}
	if err := b.checkOnly(); err != nil {
		t.Errorf("only a test the file has: %v", err)
	}
	b.only = []string{"TestSyncResults"}
	if err := b.checkOnly(); err == nil || !strings.Contains(err.Error(), "TestSyncResults") {
		t.Errorf("only a test the file does not have: %v, want an error naming it", err)
	}
}
