package playground

import (
	"os"
	"path/filepath"
	"testing"
)

// fakeGo puts a go command on PATH that reports version v.
func fakeGo(t *testing.T, v string) {
	t.Helper()
	bin := t.TempDir()
	script := "#!/bin/sh\n[ \"$1 $2\" = \"env GOVERSION\" ] && echo " + v + " && exit 0\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
}

// TestCacheKeyFollowsTheGoThatBuilds: the binaries are built by the go on
// PATH, so the cache directory must change with that go's version, not with
// the version that compiled the running program.
func TestCacheKeyFollowsTheGoThatBuilds(t *testing.T) {
	moduleDir, err := ModuleDir()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PLAYGROUND_CACHE", t.TempDir())
	dirFor := func(v string) string {
		fakeGo(t, v)
		dir, err := cacheDir(moduleDir)
		if err != nil {
			t.Fatal(err)
		}
		return dir
	}
	a, again, b := dirFor("go1.98.0"), dirFor("go1.98.0"), dirFor("go1.99.0")
	if a != again {
		t.Errorf("the same go gave two cache directories: %s, %s", a, again)
	}
	if a == b {
		t.Errorf("go1.98.0 and go1.99.0 share the cache directory %s", a)
	}
}
