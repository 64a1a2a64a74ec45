package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// A wrong answer is a plausible mistake a learner makes, kept so that make
// test can check the grader rejects it. It is kept as the smallest change to
// the solution, an edit script that carries only its wrong lines: the
// solution's lines it keeps, moves or deletes are named by a hash of their
// text, never written out, so that a learner's grep of the tree finds no
// line of the solution in it. (go run ./cmd/lab wrong-answers N shows each
// one as a diff against the solution.)
//
//	# what it gets wrong, and why a learner writes it (the comment)
//	flags: -race                (optional: go test flags its check needs)
//	func DeltaFIFO.Pop          (the marked function the edits below change)
//	delete 3fa2c1d0             (one line of the solution)
//	delete 3fa2c1d0..9b0e41aa   (the lines from one to the other)
//	replace 3fa2c1d0            (a line, or a range, by the lines that follow)
//	insert after 3fa2c1d0       (or insert before: the lines that follow)
//	+	a line of the wrong answer, as written
//	=77a0b3e1                   (a line of the solution, reused: a moved line)
//
// A hash is the first eight hex digits of the SHA-256 of the line, spaces
// around it trimmed; "#2" after it picks the second line with that text in
// the function, where the text is not unique ("}"). "=Func/hash" reuses a
// line of another marked function.

// wrongAnswer is one parsed edit script.
type wrongAnswer struct {
	Name  string // the file's name without .wrong
	About string // the comment
	Flags []string
	Funcs []string // in the order the script names them
	Edits map[string][]edit
}

type edit struct {
	op       string // delete, replace, insert-after, insert-before
	from, to string // anchors; to is from for a single line
	lines    []string
	lineNo   int
}

// lineHash names a line of the solution by its trimmed text.
func lineHash(line string) string {
	sum := sha256.Sum256([]byte(strings.TrimSpace(line)))
	return hex.EncodeToString(sum[:4])
}

// trivialLine: a line that says nothing of the solution (a brace, a bare
// return). Wrong answers write these as they are.
func trivialLine(line string) bool {
	switch strings.TrimSpace(line) {
	case "", "}", "{", ")", "} else {", "else {", "return", "return nil", "return err", "return true", "return false",
		"break", "continue", "default:", "})", "}()", "select {", "for {", "if err != nil {", "return nil, err",
		"var err error", "switch {", "} else if err != nil {", "return nil, false", "}); err != nil {",
		"defer func() {", "if err == nil {", "go func() {":
		return true
	}
	return false
}

// wrongAnswersOf lists lab n's wrong answers, by file name.
func wrongAnswersOf(root string, n int) ([]string, error) {
	return filepath.Glob(filepath.Join(root, "cmd", "lab", "testdata", fmt.Sprintf("lab%02d", n), "*.wrong"))
}

func parseWrongAnswer(path string) (*wrongAnswer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	w := &wrongAnswer{Name: strings.TrimSuffix(filepath.Base(path), ".wrong"), Edits: map[string][]edit{}}
	var about []string
	var fn string
	var cur *edit
	sc := bufio.NewScanner(f)
	for no := 1; sc.Scan(); no++ {
		line := sc.Text()
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", path, no, fmt.Sprintf(format, args...))
		}
		switch {
		case strings.HasPrefix(line, "#"):
			about = append(about, strings.TrimSpace(strings.TrimPrefix(line, "#")))
			continue
		case strings.HasPrefix(line, "+"), strings.HasPrefix(line, "="):
			if cur == nil || cur.op == "delete" {
				return nil, bad("a line of code outside a replace or an insert")
			}
			cur.lines = append(cur.lines, line)
			continue
		case strings.TrimSpace(line) == "":
			continue
		}
		cur = nil
		word, rest, _ := strings.Cut(line, " ")
		switch word {
		case "flags:":
			w.Flags = strings.Fields(rest)
		case "func":
			fn = strings.TrimSpace(rest)
			w.Funcs = append(w.Funcs, fn)
		case "delete", "replace", "insert":
			if fn == "" {
				return nil, bad("%s before any func line", word)
			}
			e := edit{op: word, lineNo: no}
			if word == "insert" {
				where, anchor, ok := strings.Cut(rest, " ")
				if !ok || (where != "after" && where != "before") {
					return nil, bad("insert after HASH or insert before HASH")
				}
				e.op, rest = "insert-"+where, anchor
			}
			e.from, e.to, _ = strings.Cut(strings.TrimSpace(rest), "..")
			if e.to == "" {
				e.to = e.from
			}
			w.Edits[fn] = append(w.Edits[fn], e)
			cur = &w.Edits[fn][len(w.Edits[fn])-1]
		default:
			return nil, bad("unknown line %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	w.About = strings.TrimSpace(strings.Join(about, "\n"))
	if len(w.Funcs) == 0 {
		return nil, fmt.Errorf("%s changes no function", path)
	}
	return w, nil
}

// bodyLines indexes a function body's lines by anchor.
type bodyLines struct {
	lines  []string
	anchor []string       // anchor of each line
	at     map[string]int // anchor → index
}

func newBodyLines(body string) *bodyLines {
	b := &bodyLines{lines: strings.Split(body, "\n"), at: map[string]int{}}
	seen := map[string]int{}
	unique := map[string]int{}
	for _, l := range b.lines {
		unique[lineHash(l)]++
	}
	for i, l := range b.lines {
		h := lineHash(l)
		seen[h]++
		a := h
		if unique[h] > 1 {
			a = fmt.Sprintf("%s#%d", h, seen[h])
		}
		b.anchor = append(b.anchor, a)
		b.at[a] = i
	}
	return b
}

func (b *bodyLines) find(anchor string) (int, error) {
	if i, ok := b.at[anchor]; ok {
		return i, nil
	}
	if _, ok := b.at[anchor+"#1"]; ok {
		return 0, fmt.Errorf("line %s is not unique in the function: say which one (%s#1, %s#2, ...)", anchor, anchor, anchor)
	}
	return 0, fmt.Errorf("no line %s in the function: the solution changed since the wrong answer was written", anchor)
}

// apply returns the bodies of the wrong answer's functions, given the
// solution's bodies of every marked function of the lab.
func (w *wrongAnswer) apply(solution map[string]string) (map[string]string, error) {
	index := map[string]*bodyLines{}
	for name, body := range solution {
		index[name] = newBodyLines(body)
	}
	out := map[string]string{}
	for _, fn := range w.Funcs {
		b, ok := index[fn]
		if !ok {
			return nil, fmt.Errorf("%s: %s is not one of the lab's functions", w.Name, fn)
		}
		body, err := w.applyTo(fn, b, index)
		if err != nil {
			return nil, fmt.Errorf("%s, func %s: %w", w.Name, fn, err)
		}
		out[fn] = body
	}
	return out, nil
}

func (w *wrongAnswer) applyTo(fn string, b *bodyLines, index map[string]*bodyLines) (string, error) {
	before := map[int][]string{}
	after := map[int][]string{}
	gone := map[int]bool{}
	replaced := map[int][]string{}
	for _, e := range w.Edits[fn] {
		from, err := b.find(e.from)
		if err != nil {
			return "", fmt.Errorf("line %d: %w", e.lineNo, err)
		}
		to, err := b.find(e.to)
		if err != nil {
			return "", fmt.Errorf("line %d: %w", e.lineNo, err)
		}
		if to < from {
			return "", fmt.Errorf("line %d: a range that ends before it starts", e.lineNo)
		}
		lines, err := resolveLines(e.lines, fn, index)
		if err != nil {
			return "", fmt.Errorf("line %d: %w", e.lineNo, err)
		}
		switch e.op {
		case "insert-before":
			before[from] = append(before[from], lines...)
		case "insert-after":
			after[to] = append(after[to], lines...)
		case "delete", "replace":
			for i := from; i <= to; i++ {
				if gone[i] {
					return "", fmt.Errorf("line %d: two edits remove the same line", e.lineNo)
				}
				gone[i] = true
			}
			replaced[from] = lines
		}
	}
	var out []string
	for i, l := range b.lines {
		out = append(out, before[i]...)
		if !gone[i] {
			out = append(out, l)
		}
		out = append(out, replaced[i]...)
		out = append(out, after[i]...)
	}
	return strings.Join(out, "\n"), nil
}

// resolveLines turns "+code" into code and "=hash" into the solution's line.
func resolveLines(lines []string, fn string, index map[string]*bodyLines) ([]string, error) {
	var out []string
	for _, l := range lines {
		if code, ok := strings.CutPrefix(l, "+"); ok {
			out = append(out, code)
			continue
		}
		ref := strings.TrimPrefix(l, "=")
		in := fn
		if f, a, ok := strings.Cut(ref, "/"); ok {
			in, ref = f, a
		}
		b, ok := index[in]
		if !ok {
			return nil, fmt.Errorf("=%s: no function %s", ref, in)
		}
		i, err := b.find(strings.TrimSpace(ref))
		if err != nil {
			return nil, err
		}
		out = append(out, b.lines[i])
	}
	return out, nil
}

// editScript writes the edit script that turns the solution's body of fn
// into wrong (go run ./cmd/lab wrong-answer-from: a maintainer writes the
// whole wrong function, the tool keeps only what differs). Lines are
// compared with their spaces trimmed, since gofmt puts them back.
func editScript(fn string, solution, wrong string, index map[string]*bodyLines) string {
	sb := index[fn]
	// Comments and blank lines are not what a wrong answer is about: both
	// sides are compared without them, and the solution keeps its own.
	var a []int // indices of the solution's lines that are code
	for i, l := range sb.lines {
		if !commentLine(l) {
			a = append(a, i)
		}
	}
	var c []string
	for _, l := range strings.Split(wrong, "\n") {
		if !commentLine(l) {
			c = append(c, l)
		}
	}
	same := func(i, j int) bool { return squeeze(sb.lines[a[i]]) == squeeze(c[j]) }
	// The longest common subsequence, by table.
	n, m := len(a), len(c)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if same(i, j) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var b strings.Builder
	i, j := 0, 0
	for i < n || j < m {
		if i < n && j < m && same(i, j) {
			i, j = i+1, j+1
			continue
		}
		// A hunk: solution lines a[i..i2) go, wrong lines c[j..j2) come.
		i2, j2 := i, j
		for (i2 < n || j2 < m) && !(i2 < n && j2 < m && same(i2, j2)) {
			if j2 >= m || (i2 < n && lcs[i2+1][j2] >= lcs[i2][j2+1]) {
				i2++
			} else {
				j2++
			}
		}
		added := refLines(c[j:j2], fn, index)
		switch {
		case i2 == i && i > 0:
			fmt.Fprintf(&b, "insert after %s\n%s", sb.anchor[a[i-1]], added)
		case i2 == i:
			fmt.Fprintf(&b, "insert before %s\n%s", sb.anchor[a[i]], added)
		case j2 == j:
			fmt.Fprintf(&b, "delete %s\n", span(sb, a[i], a[i2-1]+1))
		default:
			fmt.Fprintf(&b, "replace %s\n%s", span(sb, a[i], a[i2-1]+1), added)
		}
		i, j = i2, j2
	}
	return b.String()
}

// commentLine: a line with only a comment on it, or nothing.
func commentLine(line string) bool {
	t := strings.TrimSpace(line)
	return t == "" || strings.HasPrefix(t, "//")
}

// squeeze is a line without its comment and with its runs of spaces made
// one: gofmt's alignment and a remark are not a difference.
func squeeze(line string) string {
	var quote rune
	for i, r := range line {
		switch {
		case quote != 0:
			if r == quote && (i == 0 || line[i-1] != '\\' || quote == '`') {
				quote = 0
			}
		case r == '"' || r == '`' || r == '\'':
			quote = r
		case strings.HasPrefix(line[i:], "//"), strings.HasPrefix(line[i:], "/*"):
			line = line[:i]
		}
		if len(line) <= i {
			break
		}
	}
	return strings.Join(strings.Fields(line), " ")
}

func span(b *bodyLines, from, to int) string {
	if to-from == 1 {
		return b.anchor[from]
	}
	return b.anchor[from] + ".." + b.anchor[to-1]
}

// refLines writes added lines: a line that is also a line of the solution
// (of any marked function) as a reference to it, the others as code.
func refLines(lines []string, fn string, index map[string]*bodyLines) string {
	var names []string
	for name := range index {
		if name != fn {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	names = append([]string{fn}, names...)
	var b strings.Builder
next:
	for _, l := range lines {
		if !trivialLine(l) {
			for _, name := range names {
				bl := index[name]
				for k, sl := range bl.lines {
					if squeeze(sl) == squeeze(l) {
						if name == fn {
							fmt.Fprintf(&b, "=%s\n", bl.anchor[k])
						} else {
							fmt.Fprintf(&b, "=%s/%s\n", name, bl.anchor[k])
						}
						continue next
					}
				}
			}
		}
		fmt.Fprintf(&b, "+%s\n", l)
	}
	return b.String()
}
