package lang

import (
	"errors"
	"fmt"
)

// Error is an error a learner can cause (a flag the demo cannot take, a
// cluster it cannot reach), said in both languages. Error() is the English
// one, so logs, tests and errors.Is/As work as for any error; Message
// picks the learner's language when the error is printed.
type Error struct {
	en, zh error
}

// Errorf is fmt.Errorf in both languages: %w wraps as fmt.Errorf does
// (the English side is what errors.Unwrap sees).
func Errorf(t Text, args ...any) error {
	return &Error{en: fmt.Errorf(t.EN, localArgs(EN, args)...), zh: fmt.Errorf(t.ZH, localArgs(ZH, args)...)}
}

func (e *Error) Error() string { return e.en.Error() }

// Unwrap is the English error's: what Errorf's %w wrapped.
func (e *Error) Unwrap() error { return errors.Unwrap(e.en) }

// In is the error's message in language l.
func (e *Error) In(l string) string {
	if l == ZH {
		return e.zh.Error()
	}
	return e.en.Error()
}

// Message is err said in language l: an Error's message in l, any
// other error's own text (what the API server or the flag package said is
// quoted as it is).
func Message(err error, l string) string {
	if e, ok := err.(*Error); ok {
		return e.In(l)
	}
	return err.Error()
}

// TextOf is err said in both languages, as Message says it in each: for
// a page that shows an error in the language its reader chose.
func TextOf(err error) Text {
	return Text{EN: Message(err, EN), ZH: Message(err, ZH)}
}

// localArgs renders the arguments of a format that have a form in each
// language in l: a Text as its text in l, an Error as its message in l
// (still an error, so that %w keeps wrapping).
func localArgs(l string, args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch a := a.(type) {
		case Text:
			out[i] = a.In(l)
		case *Error:
			out[i] = said{a, l}
		default:
			out[i] = a
		}
	}
	return out
}

// said is an Error rendered in one language.
type said struct {
	e *Error
	l string
}

func (s said) Error() string { return s.e.In(s.l) }
func (s said) Unwrap() error { return s.e }
