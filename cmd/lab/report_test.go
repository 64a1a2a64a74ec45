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
