package nilpointer

import (
	"fmt"
	"testing"
)

type handler struct{}

func (*handler) String() string { return "handler" }

func TestIs(t *testing.T) {
	var nilHandler *handler
	var stringer fmt.Stringer = nilHandler
	for _, tc := range []struct {
		name string
		v    any
		want bool
	}{
		{"a nil interface", nil, false},
		{"a typed nil pointer", nilHandler, true},
		{"a typed nil pointer in another interface", stringer, true},
		{"a pointer", &handler{}, false},
		{"a value", handler{}, false},
		{"a nil map (not a pointer)", map[string]int(nil), false},
	} {
		if got := Is(tc.v); got != tc.want {
			t.Errorf("%s: Is = %v, want %v", tc.name, got, tc.want)
		}
	}
}
