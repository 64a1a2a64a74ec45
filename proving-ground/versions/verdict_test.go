package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// releases lays out fake releases 1.lo, 1.lo+1, ... of a module, each from
// its files, and returns their roots.
func releases(t *testing.T, lo int, files ...map[string]string) map[int]string {
	t.Helper()
	dirs := map[int]string{}
	for i, f := range files {
		dirs[lo+i] = filepath.Join(t.TempDir(), "release")
		writeFiles(t, dirs[lo+i], f)
	}
	return dirs
}

// historyOf reads a probe in every fake release, as run does.
func historyOf(t *testing.T, p probe, lo int, dirs map[int]string) history {
	t.Helper()
	h := history{lo: lo}
	for m := lo; m < lo+len(dirs); m++ {
		holds, saw, err := p.read(dirs[m], m)
		if err != nil {
			t.Fatalf("%s in 1.%d: %v", p, m, err)
		}
		h.holds, h.saw = append(h.holds, holds), append(h.saw, saw)
	}
	return h
}

const (
	queue22 = "package workqueue\n\ntype Type struct{}\n\nfunc (q *Type) ShutDown() {}\n"
	queue23 = queue22 + "\nfunc (q *Type) ShutDownWithDrain() {}\n"
	// 1.31 made the queue generic: the method is Typed's, Type an alias.
	queue31 = "package workqueue\n\ntype Type = Typed[any]\n\ntype Typed[T comparable] struct{}\n\nfunc (q *Typed[T]) ShutDownWithDrain() {}\n"
)

func TestARowAgreesOnlyWithTheReleaseWhereItsChangeCame(t *testing.T) {
	dirs := releases(t, 21,
		map[string]string{"util/workqueue/queue.go": queue22},
		map[string]string{"util/workqueue/queue.go": queue22},
		map[string]string{"util/workqueue/queue.go": queue23},
		map[string]string{"util/workqueue/queue.go": queue23},
	)
	p := symbol("util/workqueue", "Type.ShutDownWithDrain")
	h := historyOf(t, p, 21, dirs)
	for minor, want := range map[int]bool{22: false, 23: true, 24: false} {
		v := judge(row{id: "drain", minor: minor, probes: []probe{p}}, []history{h})
		if v.agree != want || v.found != "1.23" {
			t.Errorf("a row claiming 1.%d: agree %v, found %q; want agree %v, found 1.23", minor, v.agree, v.found, want)
		}
	}
	v := judge(row{id: "drain", minor: 23, probes: []probe{p}}, []history{h})
	if want := "util/workqueue: Type.ShutDownWithDrain  [1.22: absent; 1.23: method]"; v.evidence[0] != want {
		t.Errorf("evidence %q, want %q", v.evidence[0], want)
	}
}

func TestARenamedSymbolKeepsHolding(t *testing.T) {
	dirs := releases(t, 22,
		map[string]string{"util/workqueue/queue.go": queue22},
		map[string]string{"util/workqueue/queue.go": queue23},
		map[string]string{"util/workqueue/queue.go": queue31},
	)
	for _, tc := range []struct {
		p    probe
		want string // the evidence's bracket
	}{
		// Without the later name, the probe says the method went away.
		{symbol("util/workqueue", "Type.ShutDownWithDrain"), "[1.22: absent; 1.23: method; then 1.24: absent]"},
		{symbol("util/workqueue", "Type.ShutDownWithDrain", "Typed.ShutDownWithDrain"), "[1.22: absent; 1.23: method]"},
	} {
		v := judge(row{id: "drain", minor: 23, probes: []probe{tc.p}}, []history{historyOf(t, tc.p, 22, dirs)})
		if !v.agree || !strings.HasSuffix(v.evidence[0], tc.want) {
			t.Errorf("%s: agree %v, evidence %q; want agree, ending %q", tc.p, v.agree, v.evidence[0], tc.want)
		}
	}
}

func TestAChangeAlreadyThereOrNeverThereProvesNothing(t *testing.T) {
	dirs := releases(t, 22,
		map[string]string{"util/workqueue/queue.go": queue23},
		map[string]string{"util/workqueue/queue.go": queue23},
	)
	for _, tc := range []struct {
		p     probe
		found string
	}{
		{symbol("util/workqueue", "Type.ShutDownWithDrain"), "by 1.22"},
		{symbol("util/workqueue", "Type.Drain"), "never"},
	} {
		v := judge(row{id: "x", minor: 23, probes: []probe{tc.p}}, []history{historyOf(t, tc.p, 22, dirs)})
		if v.agree || v.found != tc.found {
			t.Errorf("%s: agree %v, found %q; want a disagreement, found %q", tc.p, v.agree, v.found, tc.found)
		}
	}
}

func TestEveryProbeOfARowMustChangeInItsRelease(t *testing.T) {
	dirs := releases(t, 29,
		map[string]string{"util/workqueue/queue.go": "package workqueue\n"},
		map[string]string{"util/workqueue/queue.go": "package workqueue\n\ntype TypedInterface interface{}\n"},
		map[string]string{"util/workqueue/queue.go": "package workqueue\n\ntype TypedInterface interface{}\n\nfunc NewTyped() {}\n"},
	)
	probes := []probe{symbol("util/workqueue", "TypedInterface"), symbol("util/workqueue", "NewTyped")}
	hs := []history{historyOf(t, probes[0], 29, dirs), historyOf(t, probes[1], 29, dirs)}
	for _, minor := range []int{30, 31} {
		v := judge(row{id: "typed", minor: minor, probes: probes}, hs)
		if v.agree || v.found != "1.30 / 1.31" {
			t.Errorf("a row claiming 1.%d: agree %v, found %q; want a disagreement, found \"1.30 / 1.31\"", minor, v.agree, v.found)
		}
	}
}

func TestAGateTurnedOnOffAndOnAgainProvesBothRows(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"pkg/features/kube_features.go": versionedGates})
	dirs := map[int]string{}
	for m := 31; m <= 35; m++ {
		dirs[m] = dir // one file, read as of each release
	}
	on, off := serverGate("WatchList", "beta, on"), serverGate("WatchList", "beta, off")
	hOn, hOff := historyOf(t, on, 31, dirs), historyOf(t, off, 31, dirs)
	for _, tc := range []struct {
		p     probe
		h     history
		minor int
		want  bool
	}{
		{on, hOn, 32, true}, {off, hOff, 33, true}, {on, hOn, 34, true},
		{on, hOn, 33, false}, {off, hOff, 34, false}, {on, hOn, 35, false},
	} {
		if v := judge(row{id: "wl", minor: tc.minor, probes: []probe{tc.p}}, []history{tc.h}); v.agree != tc.want {
			t.Errorf("%s claimed for 1.%d: agree %v, want %v (found %s)", tc.p, tc.minor, v.agree, tc.want, v.found)
		}
	}
}

func TestTextProbesReadTheDeclarationTheyName(t *testing.T) {
	before := "package cache\n\nfunc (s *informer) AddIndexers() error {\n\tif s.started {\n\t\treturn errors.New(\"informer has already started\")\n\t}\n\treturn nil\n}\n\n// Other says informer has already started.\nfunc Other() {}\n"
	after := "package cache\n\nfunc (s *informer) AddIndexers() error {\n\treturn nil\n}\n\n// Other says informer has already started.\nfunc Other() {}\n"
	dirs := releases(t, 29,
		map[string]string{"tools/cache/informer.go": before},
		map[string]string{"tools/cache/informer.go": after},
		map[string]string{"tools/cache/gone.go": "package cache\n"},
	)
	for _, tc := range []struct {
		p    probe
		want string // holds in 1.29, 1.30, 1.31
	}{
		{lacks("tools/cache", "informer.AddIndexers", "informer has already started"), "-+-"}, // a function gone is no proof
		{has("tools/cache", "informer.AddIndexers", "informer has already started"), "+--"},
		{has("tools/cache", "Other", "informer has already started"), "++-"}, // the comment is part of the text
	} {
		var got strings.Builder
		for _, holds := range historyOf(t, tc.p, 29, dirs).holds {
			got.WriteString(map[bool]string{true: "+", false: "-"}[holds])
		}
		if got.String() != tc.want {
			t.Errorf("%s held %s in 1.29 to 1.31, want %s", tc.p, got.String(), tc.want)
		}
	}
}

func TestRowsAreInOrderWithUniqueIDs(t *testing.T) {
	seen := map[string]bool{}
	for i, r := range rows {
		if seen[r.id] || r.id == "" || len(r.probes) == 0 {
			t.Errorf("row %d (%q): an id used twice, empty, or a row with no probe", i, r.id)
		}
		seen[r.id] = true
		if i > 0 && r.minor < rows[i-1].minor {
			t.Errorf("row %s (1.%d) comes after %s (1.%d): versions.md lists the rows by release", r.id, r.minor, rows[i-1].id, rows[i-1].minor)
		}
		if r.minor > latestMinor {
			t.Errorf("row %s names 1.%d, after the release read last (1.%d)", r.id, r.minor, latestMinor)
		}
	}
}
