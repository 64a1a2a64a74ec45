package lang

import (
	"fmt"
	"regexp"
	"strings"
)

// Text is one thing a program says to a person, in both languages of the
// course, side by side. Functions that narrate (the timeline's Step and
// Note, a demo's banner) take a Text, never a string, so that an
// English-only sentence does not compile where a narrated one is expected.
//
// Either field may be a format (with the same verbs in both) and may hold
// several lines, separated by "\n": Chinese need not break where English
// does. The JSON form, {"en": ..., "zh": ...}, is the live view's.
type Text struct {
	EN string `json:"en"`
	ZH string `json:"zh"`
}

// T is a Text, English first. Every call is checked by the narration
// parity test (internal/demo): both sides non-empty, the Chinese one
// Chinese, the same format verbs in both.
func T(en, zh string) Text { return Text{EN: en, ZH: zh} }

// Verbatim is a Text that reads the same in both languages because it has
// no words to translate: a table row's format such as "%-48s │ %s". The
// parity test refuses a Verbatim with words in it.
func Verbatim(s string) Text { return Text{EN: s, ZH: s} }

// In is the text in language l (EN or ZH); English for anything else.
func (t Text) In(l string) string {
	if l == ZH {
		return t.ZH
	}
	return t.EN
}

// Sprintf formats t in language l. Error arguments are rendered in l too
// (Message), so a Chinese sentence does not quote an English error that
// has a Chinese form.
func (t Text) Sprintf(l string, args ...any) string {
	return fmt.Sprintf(t.In(l), localArgs(l, args)...)
}

// Lines is t in language l, one string per line.
func (t Text) Lines(l string) []string {
	return strings.Split(t.In(l), "\n")
}

// verb matches one fmt verb: flags, an explicit argument index, a width
// and a precision, then the verb letter; "%%" is not a verb.
var verb = regexp.MustCompile(`%[-+# 0]*(?:\[\d+\])?(?:\d+|\*)?(?:\.(?:\d+|\*))?[a-zA-Z]`)

// Verbs lists the fmt verbs of s, in order, without "%%": a Text's two
// formats must agree on them, or one language would print %!d(MISSING).
func Verbs(s string) []string {
	return verb.FindAllString(strings.ReplaceAll(s, "%%", ""), -1)
}

// Format is t with args filled in, in both languages: a Text for a
// function that takes one (a step's explanation) when the words hold a
// number or a name.
func (t Text) Format(args ...any) Text {
	return Text{EN: t.Sprintf(EN, args...), ZH: t.Sprintf(ZH, args...)}
}

// Join is parts as a list, joined with sep in each language: lang.T(", ",
// "、") lists "3, 1" and "3、1".
func Join(parts []string, sep Text) Text {
	return Text{EN: strings.Join(parts, sep.EN), ZH: strings.Join(parts, sep.ZH)}
}

// Count is one or many, as n says: one as it is when n is 1, else many
// formatted with n. one and many are a noun's two forms, counted:
// lang.T("1 pod", "1 个 Pod"), lang.T("%d pods", "%d 个 Pod").
func Count(n int, one, many Text) Text {
	if n == 1 {
		return one
	}
	return many.Format(n)
}
