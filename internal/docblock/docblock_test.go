package docblock

import (
	"strings"
	"testing"
)

// TestEmbeddedFindsAndReplacesTheBlock: the block is what lies between the
// marker's line and the end line, and nothing else changes when it is
// replaced; a page without the marker or the end line is an error.
func TestEmbeddedFindsAndReplacesTheBlock(t *testing.T) {
	marker := Marker("06-sharedinformer", "TestX", "x")
	page := "before\n" + marker + "\n| a |\n| 1 |\n" + End + "\nafter\n"
	got, replaced, err := Embedded(page, marker, "| a |\n| 2 |\n")
	if err != nil {
		t.Fatal(err)
	}
	if got != "| a |\n| 1 |\n" {
		t.Errorf("the block read as %q", got)
	}
	if want := "before\n" + marker + "\n| a |\n| 2 |\n" + End + "\nafter\n"; replaced != want {
		t.Errorf("the page rewritten:\n%s\nwant:\n%s", replaced, want)
	}
	if _, _, err := Embedded(strings.Replace(page, "TestX", "TestY", 1), marker, ""); err == nil {
		t.Error("a page without the marker passed")
	}
	if _, _, err := Embedded(strings.Replace(page, End, "<!-- end -->", 1), marker, ""); err == nil {
		t.Error("a block without its end line passed")
	}
}
