package demo_test

import (
	"os"
	"testing"
)

// TestMain makes English the locale's language for every test that does
// not choose one (lang_test.go does): their expectations are English,
// whatever the machine's LANG says.
func TestMain(m *testing.M) {
	os.Setenv("LC_ALL", "C")
	os.Exit(m.Run())
}
