package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// tableRow is a row of versions.md's table as the page writes it.
type tableRow struct {
	id, version, proof string
	line               int
}

// versionRow is a table row whose first cell is <a id="..."></a>1.N.
var versionRow = regexp.MustCompile(`^\| <a id="([^"]+)"></a>(1\.\d+) \|.*\| ([^|]*) \|$`)

func readTable(t *testing.T, path string) []tableRow {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []tableRow
	for i, line := range strings.Split(string(b), "\n") {
		if m := versionRow.FindStringSubmatch(line); m != nil {
			out = append(out, tableRow{m[1], m[2], m[3], i + 1})
		} else if strings.HasPrefix(line, "| <a id=") {
			t.Errorf("%s:%d: a row that is not `| <a id=\"...\"></a>1.N | ... | proof |`", path, i+1)
		}
	}
	return out
}

// proofCell is how versions.md writes a row's probes: each as the program
// prints it, in code, one a line.
func proofCell(r row) string {
	var cells []string
	for _, p := range r.probes {
		cells = append(cells, "`"+p.String()+"`")
	}
	return strings.Join(cells, "<br>")
}

// TestVersionsPagesAreTheProbeList keeps docs/{en,zh}/versions.md and rows.go
// one list: the same rows in the same order, each with the version the
// probes prove and, in its last column, exactly its probes. A row added to
// the page without a probe, a version changed on the page and not here (or
// here and not on the page), a probe changed and not written: each fails.
func TestVersionsPagesAreTheProbeList(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		path := filepath.Join("..", "..", "docs", lang, "versions.md")
		table := readTable(t, path)
		if len(table) != len(rows) {
			t.Errorf("%s has %d rows, rows.go %d", path, len(table), len(rows))
		}
		for i := 0; i < min(len(table), len(rows)); i++ {
			got, want := table[i], rows[i]
			if got.id != want.id {
				t.Errorf("%s:%d: row %d is #%s, rows.go's is %s", path, got.line, i+1, got.id, want.id)
				continue
			}
			if got.version != want.version() {
				t.Errorf("%s:%d: #%s says %s; rows.go says %s, which make versions proves", path, got.line, got.id, got.version, want.version())
			}
			if cell := proofCell(want); got.proof != cell {
				t.Errorf("%s:%d: #%s's last column is\n  %s\nwant its probes, as rows.go has them:\n  %s", path, got.line, got.id, got.proof, cell)
			}
		}
	}
}

// TestVersionsPagesSayWhenTheCheckRan: each page says when make versions
// last ran, and how many rows it proved, which must be all of them.
func TestVersionsPagesSayWhenTheCheckRan(t *testing.T) {
	for lang, said := range map[string]*regexp.Regexp{
		"en": regexp.MustCompile("Last checked on (\\d{4}-\\d\\d-\\d\\d) with `make versions`: all (\\d+) rows proved"),
		"zh": regexp.MustCompile("最近一次检查：(\\d{4}-\\d\\d-\\d\\d)，`make versions`，(\\d+) 行全部得到证明"),
	} {
		b, err := os.ReadFile(filepath.Join("..", "..", "docs", lang, "versions.md"))
		if err != nil {
			t.Fatal(err)
		}
		m := said.FindStringSubmatch(string(b))
		if m == nil {
			t.Errorf("docs/%s/versions.md does not say when make versions last ran (%s)", lang, said)
			continue
		}
		if n, _ := strconv.Atoi(m[2]); n != len(rows) {
			t.Errorf("docs/%s/versions.md says make versions proved %d rows on %s; there are %d: run it again and say so", lang, n, m[1], len(rows))
		}
	}
}
