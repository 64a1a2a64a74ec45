package playground

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// fakeGoBuild puts a go command on PATH whose list and build print what
// the real ones print on a first build (downloads, then one line per
// compiled package on standard error) and whose build writes the binaries.
func fakeGoBuild(t *testing.T, buildExit int) {
	t.Helper()
	bin := t.TempDir()
	script := `#!/bin/sh
case "$1" in
env) echo go1.98.0 ;;
list) echo "go: downloading example.com/a v1.0.0" >&2; echo "go: downloading example.com/b v1.0.0" >&2
      printf 'runtime\n\nexample.com/a\nexample.com/b\n\nk8s.io/kubernetes/cmd/kube-apiserver\n' ;;
build) printf 'runtime\nexample.com/a\n' >&2
      [ ` + strconv.Itoa(buildExit) + ` = 0 ] || { echo "example.com/b: compile error" >&2; exit ` + strconv.Itoa(buildExit) + `; }
      printf 'k8s.io/kubernetes/cmd/kube-apiserver\n' >&2
      out=$4; touch "$out/kube-apiserver" "$out/server" "$out/kubectl" ;;
esac
`
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":/usr/bin:/bin")
}

// TestFirstBuildSaysWhatItDoes: a first build names its two steps, the
// modules it downloaded and the packages it will compile, and installs
// the binaries; a failing build reports the go command's output.
func TestFirstBuildSaysWhatItDoes(t *testing.T) {
	noPrebuilt(t)
	t.Setenv("PLAYGROUND_CACHE", t.TempDir())
	fakeGoBuild(t, 0)
	var progress strings.Builder
	bins, err := EnsureBinaries(context.Background(), &progress)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"building kube-apiserver v1.37.1 and etcd 3.7.0 from source, so that the demos talk to a real API server", "happens once",
		"to skip this build, point $KUBEBUILDER_ASSETS (or $PLAYGROUND_BINARIES) at a kube-apiserver v1.37.x and etcd 3.7.x",
		"step 1 of 2: downloading the modules kube-apiserver and etcd need", "2 modules downloaded; 4 packages to compile", "step 2 of 2", "built in"} {
		if !strings.Contains(progress.String(), want) {
			t.Errorf("the build's progress does not say %q:\n%s", want, progress.String())
		}
	}
	for _, f := range []string{bins.APIServer, bins.Etcd} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("not installed: %v", err)
		}
	}

	t.Setenv("PLAYGROUND_CACHE", t.TempDir())
	fakeGoBuild(t, 1)
	_, err = EnsureBinaries(context.Background(), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "example.com/b: compile error") {
		t.Errorf("a failed build gave %v, want the compiler's message", err)
	}
}

// noPrebuilt unsets the variables that name the learner's own binaries, so
// that a test of the build does not find the ones a developer exported.
func noPrebuilt(t *testing.T) {
	t.Helper()
	t.Setenv(BinariesEnv, "")
	t.Setenv(EnvtestEnv, "")
}
