package playground

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
	"k8s.io/client-go/kubernetes"
)

// Answers to --version as the binaries give them. envtest 1.37.0 ships
// kube-apiserver v1.37.0 and etcd 3.7.0; the playground builds v1.37.1 and
// 3.7.0.
const (
	apiserverSays = "Kubernetes %s"
	etcdSays      = "etcd Version: %s\nGit SHA: 1e8a2cc\nGo Version: go1.26.6\nGo OS/Arch: linux/amd64"
	kubectlSays   = "Client Version: %s\nKustomize Version: v5.7.1"
)

// fakeBin is one file of a fake directory: what it prints, or its raw
// content when script is false.
type fakeBin struct {
	says   string
	script bool
	mode   os.FileMode
}

func says(format, version string) fakeBin {
	return fakeBin{says: strings.ReplaceAll(format, "%s", version), script: true, mode: 0o755}
}

// fakeAssets makes a directory laid out as setup-envtest's, whose
// binaries are shell scripts that answer --version as files says.
func fakeAssets(t *testing.T, files map[string]fakeBin) string {
	t.Helper()
	dir := t.TempDir()
	for name, f := range files {
		content := f.says
		if f.script {
			content = "#!/bin/sh\ncat <<'EOF'\n" + f.says + "\nEOF\n"
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), f.mode); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// envtest137 is what `setup-envtest use 1.37.x` puts in its directory.
func envtest137() map[string]fakeBin {
	return map[string]fakeBin{
		"kube-apiserver": says(apiserverSays, "v1.37.0"),
		"etcd":           says(etcdSays, "3.7.0"),
		"kubectl":        says(kubectlSays, "v1.37.0"),
	}
}

// goMustNotRun puts a go command on PATH that fails the test if anything
// asks it to build (or anything else).
func goMustNotRun(t *testing.T) {
	t.Helper()
	bin := t.TempDir()
	called := filepath.Join(bin, "called")
	script := "#!/bin/sh\necho \"$@\" >> " + called + "\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":/usr/bin:/bin")
	t.Cleanup(func() {
		if b, err := os.ReadFile(called); err == nil {
			t.Errorf("the go command ran (go %s), though nothing was to be built", strings.TrimSpace(string(b)))
		}
	})
}

// lines are the lines progress received.
func lines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }

// TestPrebuiltBinariesThatFitAreUsedWithNothingBuilt: a directory whose
// kube-apiserver is v1.37.x and whose etcd is 3.7.x, named by either
// variable, is what the playground runs: nothing is built, not even asked
// of the go command, and one line says which binaries, from where, which
// versions.
func TestPrebuiltBinariesThatFitAreUsedWithNothingBuilt(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	cases := []struct {
		name, env          string
		apiserver, etcd    string
		wantAPI, wantEtcd  string
		wantLineUsingShape string
	}{
		{"envtest 1.37.0", EnvtestEnv, "v1.37.0", "3.7.0", "v1.37.0", "3.7.0",
			"playground: using kube-apiserver v1.37.0 and etcd 3.7.0 from $KUBEBUILDER_ASSETS (DIR), not the playground's own build"},
		{"the playground's own versions", BinariesEnv, "v1.37.1", "3.7.0", "v1.37.1", "3.7.0",
			"playground: using kube-apiserver v1.37.1 and etcd 3.7.0 from $PLAYGROUND_BINARIES (DIR), not the playground's own build"},
		{"later patches, a vendor's build metadata", EnvtestEnv, "v1.37.12+k3s1", "3.7.4", "v1.37.12+k3s1", "3.7.4",
			"playground: using kube-apiserver v1.37.12+k3s1 and etcd 3.7.4 from $KUBEBUILDER_ASSETS (DIR), not the playground's own build"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			noPrebuilt(t)
			t.Setenv("PLAYGROUND_CACHE", t.TempDir())
			goMustNotRun(t)
			dir := fakeAssets(t, map[string]fakeBin{
				"kube-apiserver": says(apiserverSays, tc.apiserver),
				"etcd":           says(etcdSays, tc.etcd),
			})
			t.Setenv(tc.env, dir)
			var progress strings.Builder
			bins, err := EnsureBinaries(context.Background(), &progress)
			if err != nil {
				t.Fatal(err)
			}
			want := Binaries{Dir: dir, APIServer: filepath.Join(dir, "kube-apiserver"), Etcd: filepath.Join(dir, "etcd"),
				From: tc.env, APIServerVersion: tc.wantAPI, EtcdVersion: tc.wantEtcd}
			if bins != want {
				t.Errorf("ours returned\n%+v\nwant\n%+v", bins, want)
			}
			wantLine := strings.Replace(tc.wantLineUsingShape, "DIR", dir, 1)
			if got := lines(progress.String()); len(got) != 1 || got[0] != wantLine {
				t.Errorf("progress said\n%s\nwant the one line\n%s", progress.String(), wantLine)
			}
		})
	}
}

// TestPrebuiltBinariesThatDoNotFitAreRefusedInOneLine: anything short of
// a fitting pair is refused with one line that names the variable, the
// directory and why, and the playground builds its own, as without the
// variable (the go command here is a fake that "builds" in no time).
func TestPrebuiltBinariesThatDoNotFitAreRefusedInOneLine(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	with := func(change func(files map[string]fakeBin)) map[string]fakeBin {
		files := envtest137()
		change(files)
		return files
	}
	cases := []struct {
		name  string
		files map[string]fakeBin // nil: the variable names no directory at all
		why   string
	}{
		{"kube-apiserver of another minor", with(func(f map[string]fakeBin) { f["kube-apiserver"] = says(apiserverSays, "v1.36.0") }),
			"kube-apiserver there is v1.36.0, not v1.37.x"},
		{"a pre-release of 1.37", with(func(f map[string]fakeBin) { f["kube-apiserver"] = says(apiserverSays, "v1.37.0-rc.1") }),
			"kube-apiserver there is v1.37.0-rc.1, not v1.37.x"},
		{"envtest 1.36.2's etcd", with(func(f map[string]fakeBin) { f["etcd"] = says(etcdSays, "3.6.8") }),
			"etcd there is 3.6.8, not 3.7.x"},
		{"both wrong: both said", with(func(f map[string]fakeBin) {
			f["kube-apiserver"] = says(apiserverSays, "v1.38.0")
			f["etcd"] = says(etcdSays, "3.8.0")
		}), "kube-apiserver there is v1.38.0, not v1.37.x; etcd there is 3.8.0, not 3.7.x"},
		{"etcd missing", with(func(f map[string]fakeBin) { delete(f, "etcd") }),
			"no etcd there"},
		{"kube-apiserver not executable", with(func(f map[string]fakeBin) { f["kube-apiserver"] = fakeBin{says: "", mode: 0o644} }),
			"kube-apiserver there is not executable"},
		{"a version nobody can read", with(func(f map[string]fakeBin) { f["kube-apiserver"] = says("%s", "hello") }),
			`cannot read kube-apiserver's version (kube-apiserver --version: printed "hello")`},
		{"a binary for another system", with(func(f map[string]fakeBin) { f["etcd"] = fakeBin{says: "\x7fELF\x02\x01\x01", mode: 0o755} }),
			"cannot read etcd's version (etcd --version: exec format error)"},
		{"no such directory", nil, "no such directory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			noPrebuilt(t)
			cache := t.TempDir()
			t.Setenv("PLAYGROUND_CACHE", cache)
			fakeGoBuild(t, 0)
			dir := filepath.Join(t.TempDir(), "not-there")
			if tc.files != nil {
				dir = fakeAssets(t, tc.files)
			}
			t.Setenv(EnvtestEnv, dir)
			var progress strings.Builder
			bins, err := EnsureBinaries(context.Background(), &progress)
			if err != nil {
				t.Fatal(err)
			}
			got := lines(progress.String())
			wantLine := "playground: not using $KUBEBUILDER_ASSETS (" + dir + "): " + tc.why + "; the playground uses its own build"
			if got[0] != wantLine {
				t.Errorf("the first line is\n%s\nwant\n%s", got[0], wantLine)
			}
			for _, l := range got[1:] {
				if strings.Contains(l, "KUBEBUILDER_ASSETS") {
					t.Errorf("the refusal took more than one line; also:\n%s", l)
				}
			}
			if !strings.Contains(progress.String(), "step 2 of 2") {
				t.Errorf("refused, yet nothing was built:\n%s", progress.String())
			}
			if bins.From != "" || !strings.HasPrefix(bins.APIServer, cache) || bins.APIServerVersion != KubernetesVersion {
				t.Errorf("ours returned %+v, want the playground's own build under %s", bins, cache)
			}
		})
	}
}

// TestPlaygroundBinariesWinOverKubebuilderAssets: with both variables
// set, PLAYGROUND_BINARIES decides, whether it fits or not; the other is
// not looked at, so the line names the one that decided.
func TestPlaygroundBinariesWinOverKubebuilderAssets(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	fits := envtest137()
	wrong := with136()
	t.Run("ours fits", func(t *testing.T) {
		noPrebuilt(t)
		t.Setenv("PLAYGROUND_CACHE", t.TempDir())
		goMustNotRun(t)
		ours := fakeAssets(t, fits)
		t.Setenv(BinariesEnv, ours)
		t.Setenv(EnvtestEnv, fakeAssets(t, wrong))
		var progress strings.Builder
		bins, err := EnsureBinaries(context.Background(), &progress)
		if err != nil {
			t.Fatal(err)
		}
		if bins.Dir != ours || bins.From != BinariesEnv || !strings.Contains(progress.String(), "from $PLAYGROUND_BINARIES") {
			t.Errorf("ours used %+v, saying\n%s\nwant $PLAYGROUND_BINARIES's", bins, progress.String())
		}
	})
	t.Run("ours does not fit", func(t *testing.T) {
		noPrebuilt(t)
		t.Setenv("PLAYGROUND_CACHE", t.TempDir())
		fakeGoBuild(t, 0)
		t.Setenv(BinariesEnv, fakeAssets(t, wrong))
		t.Setenv(EnvtestEnv, fakeAssets(t, fits))
		var progress strings.Builder
		bins, err := EnsureBinaries(context.Background(), &progress)
		if err != nil {
			t.Fatal(err)
		}
		if bins.From != "" || !strings.HasPrefix(progress.String(), "playground: not using $PLAYGROUND_BINARIES") {
			t.Errorf("ours used %+v, saying\n%s\nwant $PLAYGROUND_BINARIES refused and the playground's own build", bins, progress.String())
		}
		if strings.Contains(progress.String(), "KUBEBUILDER_ASSETS (") {
			t.Errorf("$KUBEBUILDER_ASSETS was looked at too:\n%s", progress.String())
		}
	})
}

func with136() map[string]fakeBin {
	return map[string]fakeBin{
		"kube-apiserver": says(apiserverSays, "v1.36.2"),
		"etcd":           says(etcdSays, "3.6.8"),
		"kubectl":        says(kubectlSays, "v1.36.2"),
	}
}

// TestPrebuiltKubectl: make playground and playground up want kubectl
// too. envtest ships one: it is used when it is v1.37.x; when it is not,
// the line says so and only kubectl is built, beside the learner's
// kube-apiserver and etcd.
func TestPrebuiltKubectl(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	t.Run("envtest's", func(t *testing.T) {
		noPrebuilt(t)
		t.Setenv("PLAYGROUND_CACHE", t.TempDir())
		goMustNotRun(t)
		dir := fakeAssets(t, envtest137())
		t.Setenv(EnvtestEnv, dir)
		var progress strings.Builder
		bins, err := EnsureKubectl(context.Background(), &progress)
		if err != nil {
			t.Fatal(err)
		}
		want := "playground: using kube-apiserver v1.37.0, etcd 3.7.0 and kubectl v1.37.0 from $KUBEBUILDER_ASSETS (" + dir + "), not the playground's own build\n"
		if bins.Kubectl != filepath.Join(dir, "kubectl") || progress.String() != want {
			t.Errorf("ours used %+v, saying\n%s\nwant the directory's kubectl, saying\n%s", bins, progress.String(), want)
		}
	})
	t.Run("missing", func(t *testing.T) {
		noPrebuilt(t)
		cache := t.TempDir()
		t.Setenv("PLAYGROUND_CACHE", cache)
		fakeGoBuild(t, 0)
		files := envtest137()
		delete(files, "kubectl")
		dir := fakeAssets(t, files)
		t.Setenv(EnvtestEnv, dir)
		var progress strings.Builder
		bins, err := EnsureKubectl(context.Background(), &progress)
		if err != nil {
			t.Fatal(err)
		}
		said := progress.String()
		want := "playground: using kube-apiserver v1.37.0 and etcd 3.7.0 from $KUBEBUILDER_ASSETS (" + dir + "), not the playground's own build; no kubectl there, so kubectl is the playground's own\n"
		if !strings.HasPrefix(said, want) {
			t.Errorf("the first line is\n%s\nwant\n%s", lines(said)[0], want)
		}
		if bins.APIServer != filepath.Join(dir, "kube-apiserver") || bins.Etcd != filepath.Join(dir, "etcd") || !strings.HasPrefix(bins.Kubectl, cache) {
			t.Errorf("ours used %+v, want the directory's kube-apiserver and etcd and a kubectl built under %s", bins, cache)
		}
		// Building kubectl alone is quick: no word of the long build.
		if !strings.Contains(said, "building kubectl v1.37.1 from source, so that you can change the playground by hand") ||
			!strings.Contains(said, "downloading the modules kubectl needs") ||
			strings.Contains(said, "minutes") || strings.Contains(said, "to skip this build") {
			t.Errorf("a kubectl-only build said\n%s", said)
		}
	})
}

// TestVersionsAreTheModules: the versions the rule accepts follow what
// the nested module builds, so a bump of playground/go.mod that forgets
// the constants fails here rather than refusing every envtest.
func TestVersionsAreTheModules(t *testing.T) {
	moduleDir, err := ModuleDir()
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(moduleDir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for mod, want := range map[string]string{
		"k8s.io/kubernetes":         KubernetesVersion,
		"go.etcd.io/etcd/server/v3": "v" + EtcdVersion,
	} {
		m := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(mod) + ` (\S+)`).FindSubmatch(gomod)
		if m == nil || string(m[1]) != want {
			t.Errorf("playground/go.mod requires %s %s; the constant says %s", mod, m, want)
		}
	}
}

// TestPlaygroundsOwnBinariesThroughTheVariables points each variable at a
// directory of real binaries, the playground's own build (made first if
// this machine has none), with an empty cache and a go command that must
// not run: they are used, no build step is printed, and a playground
// started from them serves as the version they reported.
func TestPlaygroundsOwnBinariesThroughTheVariables(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the playground; skipped with -short")
	}
	noPrebuilt(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	own, err := EnsureBinaries(ctx, testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent(),
		// The clientset's idle connections are its transport's, not the
		// playground's, and close on their own timeout.
		goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"))
	noBuild := func(t *testing.T, said string) {
		t.Helper()
		for _, building := range []string{"first run", "step 1 of 2", "building", "not using"} {
			if strings.Contains(said, building) {
				t.Errorf("progress says %q:\n%s", building, said)
			}
		}
	}
	t.Run(BinariesEnv, func(t *testing.T) {
		t.Setenv("PLAYGROUND_CACHE", t.TempDir())
		goMustNotRun(t)
		t.Setenv(BinariesEnv, own.Dir)
		var progress strings.Builder
		bins, err := EnsureBinaries(ctx, &progress)
		if err != nil {
			t.Fatal(err)
		}
		want := "playground: using kube-apiserver " + KubernetesVersion + " and etcd " + EtcdVersion + " from $PLAYGROUND_BINARIES (" + own.Dir + "), not the playground's own build\n"
		if progress.String() != want || bins.APIServer != own.APIServer || bins.Etcd != own.Etcd {
			t.Errorf("ours used %+v, saying\n%swant the directory's, saying\n%s", bins, progress.String(), want)
		}
		noBuild(t, progress.String())
	})
	t.Run(EnvtestEnv+", started", func(t *testing.T) {
		t.Setenv("PLAYGROUND_CACHE", t.TempDir())
		goMustNotRun(t)
		t.Setenv(EnvtestEnv, own.Dir)
		var progress strings.Builder
		c, err := Start(ctx, Options{Progress: &progress})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Stop()
		noBuild(t, progress.String())
		used := c.Binaries()
		if used.From != EnvtestEnv || used.APIServer != own.APIServer {
			t.Errorf("the playground runs %+v, want the binaries in $%s", used, EnvtestEnv)
		}
		client, err := kubernetes.NewForConfig(c.RESTConfig())
		if err != nil {
			t.Fatal(err)
		}
		v, err := client.Discovery().ServerVersion()
		if err != nil {
			t.Fatal(err)
		}
		if v.GitVersion != used.APIServerVersion {
			t.Errorf("the server says it is %s; --version said %s", v.GitVersion, used.APIServerVersion)
		}
		if err := c.Stop(); err != nil {
			t.Error(err)
		}
	})
}

// testLog hands a build's progress to the test's log.
type testLog struct{ t *testing.T }

func (w testLog) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

// TestProgressSpeaksItsWritersLanguage: a demo hands the playground a
// writer made with Speaking, and the playground's lines are said in the
// demo's language; to any other writer, in English.
func TestProgressSpeaksItsWritersLanguage(t *testing.T) {
	wrong := fakeAssets(t, with136())
	for _, tc := range []struct {
		l, want string
	}{
		{"en", "playground: not using $PLAYGROUND_BINARIES (" + wrong + "): kube-apiserver there is v1.36.2, not v1.37.x; etcd there is 3.6.8, not 3.7.x; the playground uses its own build\n"},
		{"zh", "playground：不使用 $PLAYGROUND_BINARIES (" + wrong + ")：那里的 kube-apiserver 是 v1.36.2，不是 v1.37.x；那里的 etcd 是 3.6.8，不是 3.7.x；playground 改用自己编译的二进制\n"},
	} {
		t.Setenv(BinariesEnv, wrong)
		var progress strings.Builder
		if _, ok := prebuilt(context.Background(), Speaking(&progress, tc.l), false); ok || progress.String() != tc.want {
			t.Errorf("--lang=%s: prebuilt said %q, want %q", tc.l, progress.String(), tc.want)
		}
	}
}
