package demotest

import (
	"regexp"
	"strconv"
	"strings"

	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/timeline"
)

// NoteArgs finds the notes of a transcript printed with format (in either
// language) and returns, for each, what its verbs printed, in the order of
// the arguments (a Chinese format that picks them by index, %[2]s, is read
// back into that order). A demo's test compares them with what it counts
// in the rows the note narrates, so that a note whose numbers disagree with
// its rows fails, however the demo computed them.
func NoteArgs(tr Transcript, format lang.Text) [][]string {
	var out [][]string
	res := []*noteFormat{parseNoteFormat(format.EN), parseNoteFormat(format.ZH)}
	for _, r := range tr.Rows {
		if r.Kind != timeline.KindNote {
			continue
		}
		for _, f := range res {
			if args, ok := f.match(r.Detail); ok {
				out = append(out, args)
				break
			}
		}
	}
	return out
}

// noteFormat is a format read back: a regular expression with a group per
// verb, and the argument each group holds.
type noteFormat struct {
	re   *regexp.Regexp
	args []int
}

var formatVerb = regexp.MustCompile(`%(?:\[(\d+)\])?[-+# 0]*\d*(?:\.\d+)?([a-zA-Z%])`)

func parseNoteFormat(format string) *noteFormat {
	f := &noteFormat{}
	var b strings.Builder
	b.WriteString(`(?s)^`)
	last, next := 0, 0
	for _, m := range formatVerb.FindAllStringSubmatchIndex(format, -1) {
		b.WriteString(regexp.QuoteMeta(format[last:m[0]]))
		last = m[1]
		verb := format[m[4]:m[5]]
		if verb == "%" {
			b.WriteString("%")
			continue
		}
		arg := next
		if m[2] >= 0 {
			n, _ := strconv.Atoi(format[m[2]:m[3]])
			arg = n - 1
		}
		next = arg + 1
		f.args = append(f.args, arg)
		switch verb {
		case "d":
			b.WriteString(`(-?\d+)`)
		default:
			b.WriteString(`(.*?)`)
		}
	}
	b.WriteString(regexp.QuoteMeta(format[last:]))
	b.WriteString(`$`)
	f.re = regexp.MustCompile(b.String())
	return f
}

func (f *noteFormat) match(note string) ([]string, bool) {
	m := f.re.FindStringSubmatch(note)
	if m == nil {
		return nil, false
	}
	args := make([]string, len(f.args))
	for i, a := range f.args {
		if a < len(args) {
			args[a] = m[i+1]
		}
	}
	return args, true
}
