package playground

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// KubernetesVersion is the version of k8s.io/kubernetes the playground's
// apiserver and kubectl are built from. The Go module proxy refuses the zip of
// v1.37.2, so the nested module uses v1.37.1 with every staging module
// (client-go, apimachinery, apiserver, ...) replaced by v0.37.2: the code that
// serves LIST and WATCH is the 1.37.2 code.
const KubernetesVersion = "v1.37.1"

// The packages the nested module builds, and the file name each gets.
var (
	apiserverPkg = binary{name: "kube-apiserver", pkg: "k8s.io/kubernetes/cmd/kube-apiserver"}
	etcdPkg      = binary{name: "etcd", pkg: "go.etcd.io/etcd/server/v3"}
	kubectlPkg   = binary{name: "kubectl", pkg: "k8s.io/kubernetes/cmd/kubectl"}
)

type binary struct{ name, pkg string }

// version is the version the nested module builds of b.
func (b binary) version() string {
	if b == etcdPkg {
		return EtcdVersion
	}
	return KubernetesVersion
}

// What a first build of kube-apiserver and etcd costs on 2 cores with empty
// Go caches, after the demo's own compile, as the README measured it
// (4 min 22 s, and 2.7 GB at the link); the README and the chapters give
// the same figures, and the 7 minutes of a whole first run.
const (
	firstBuildTime   = "4½ minutes"
	firstBuildMemory = "2.7 GB"
)

// Binaries are the paths of the programs a playground runs, and what they
// are.
type Binaries struct {
	Dir       string
	APIServer string
	Etcd      string
	Kubectl   string // empty unless asked for with EnsureKubectl
	// From is "" when the playground built them, else the variable that
	// named the directory they were found in (prebuilt.go).
	From string
	// APIServerVersion and EtcdVersion are what the binaries say they are
	// when From is set, and what the playground builds otherwise.
	APIServerVersion, EtcdVersion string
}

// ldflags give the binaries a parseable version: without them the apiserver
// reports v0.0.0-master and clients cannot compare versions.
func ldflags() string {
	v := strings.TrimPrefix(KubernetesVersion, "v")
	parts := strings.SplitN(v, ".", 3)
	flags := []string{
		"-X k8s.io/component-base/version.gitVersion=" + KubernetesVersion,
		"-X k8s.io/component-base/version.gitMajor=" + parts[0],
		"-X k8s.io/component-base/version.gitMinor=" + parts[1],
		"-X k8s.io/component-base/version.gitTreeState=clean",
		"-X k8s.io/client-go/pkg/version.gitVersion=" + KubernetesVersion,
	}
	return strings.Join(flags, " ")
}

// ModuleDir finds the nested playground module: the playground/ directory
// beside the root go.mod, looked for from the working directory upwards and,
// failing that, from this source file.
func ModuleDir() (string, error) {
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if _, file, _, ok := runtime.Caller(0); ok {
		starts = append(starts, filepath.Dir(file))
	}
	for _, dir := range starts {
		for {
			candidate := filepath.Join(dir, "playground", "go.mod")
			if _, err := os.Stat(candidate); err == nil {
				return filepath.Dir(candidate), nil
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return "", errors.New("cannot find the playground/ module: run from inside the repository")
}

// cacheDir is where the binaries for this exact playground/go.mod, go.sum and
// Go toolchain live, so a change to any of them builds afresh. The toolchain
// is the one build runs: the go on PATH, asked in the module's directory
// (where GOTOOLCHAIN may pick another), not the one that compiled this
// program.
func cacheDir(moduleDir string) (string, error) {
	h := sha256.New()
	for _, f := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(moduleDir, f))
		if err != nil {
			return "", err
		}
		h.Write(b)
	}
	goVersion, err := buildGoVersion(moduleDir)
	if err != nil {
		return "", err
	}
	io.WriteString(h, goVersion+ldflags())
	base := os.Getenv("PLAYGROUND_CACHE")
	if base == "" {
		userCache, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("no cache directory for the playground binaries (set PLAYGROUND_CACHE): %w", err)
		}
		base = filepath.Join(userCache, "informer-from-scratch", "playground")
	}
	return filepath.Join(base, hex.EncodeToString(h.Sum(nil))[:16]), nil
}

// buildGoVersion is the version of the go command build runs in moduleDir.
func buildGoVersion(moduleDir string) (string, error) {
	cmd := exec.Command("go", "env", "GOVERSION")
	cmd.Dir = moduleDir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("asking the go command for its version (go env GOVERSION): %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// EnsureBinaries returns the apiserver and etcd: those of the directory
// PLAYGROUND_BINARIES or KUBEBUILDER_ASSETS names when they fit
// (prebuilt.go), else the playground's own, built first if this machine has
// not built them yet. progress receives a line saying which, and, while a
// build runs, a line every few seconds, because the first build takes minutes.
func EnsureBinaries(ctx context.Context, progress io.Writer) (Binaries, error) {
	return ensure(ctx, progress, apiserverPkg, etcdPkg)
}

// EnsureKubectl is EnsureBinaries plus kubectl, for learners who want to change
// the playground by hand from a second terminal.
func EnsureKubectl(ctx context.Context, progress io.Writer) (Binaries, error) {
	return ensure(ctx, progress, apiserverPkg, etcdPkg, kubectlPkg)
}

func ensure(ctx context.Context, progress io.Writer, want ...binary) (Binaries, error) {
	withKubectl := len(want) == 3
	given, ok := prebuilt(ctx, progress, withKubectl)
	if ok && (!withKubectl || given.Kubectl != "") {
		return given, nil
	}
	moduleDir, err := ModuleDir()
	if err != nil {
		return Binaries{}, err
	}
	dir, err := cacheDir(moduleDir)
	if err != nil {
		return Binaries{}, err
	}
	bins := Binaries{
		Dir:              dir,
		APIServer:        filepath.Join(dir, apiserverPkg.name),
		Etcd:             filepath.Join(dir, etcdPkg.name),
		APIServerVersion: KubernetesVersion,
		EtcdVersion:      EtcdVersion,
	}
	if withKubectl {
		bins.Kubectl = filepath.Join(dir, kubectlPkg.name)
	}
	if ok {
		// The learner's apiserver and etcd, and our kubectl: theirs did
		// not fit, and prebuilt said so.
		given.Kubectl = bins.Kubectl
		bins, want = given, []binary{kubectlPkg}
	}
	missing := missingBinaries(dir, want)
	if len(missing) == 0 {
		return bins, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Binaries{}, err
	}
	// Several test binaries may start at once; one builds, the others wait.
	unlock, err := lockFile(ctx, dir+".lock")
	if err != nil {
		return Binaries{}, err
	}
	defer unlock()
	if missing = missingBinaries(dir, want); len(missing) == 0 {
		return bins, nil
	}
	return bins, build(ctx, progress, moduleDir, dir, missing)
}

func missingBinaries(dir string, want []binary) []binary {
	var missing []binary
	for _, b := range want {
		if _, err := os.Stat(filepath.Join(dir, b.name)); err != nil {
			missing = append(missing, b)
		}
	}
	return missing
}

func build(ctx context.Context, progress io.Writer, moduleDir, dir string, bins []binary) error {
	var names, versioned, pkgs []string
	server := false
	for _, b := range bins {
		names = append(names, b.name)
		versioned = append(versioned, b.name+" "+b.version())
		pkgs = append(pkgs, b.pkg)
		server = server || b != kubectlPkg
	}
	// kubectl alone is built when the learner's kube-apiserver and etcd
	// are used (prebuilt.go), or for make playground after make test.
	why := sayForKubectl
	if server {
		why = sayForServer
	}
	l := languageOf(progress)
	say(progress, sayFirstRun, strings.Join(versioned, sayAnd.In(l)), why)
	say(progress, sayOnce, dir)
	if server {
		say(progress, sayCost, firstBuildTime, firstBuildMemory)
		if from, _ := namedDir(); from == "" {
			// The shortcut, said while it can still save the wait; with a
			// variable set, prebuilt has just said why it was not taken.
			say(progress, saySkipBuild,
				EnvtestEnv, BinariesEnv, apiserverProbe.want, etcdProbe.want, EnvtestEnv, strings.TrimPrefix(apiserverProbe.want, "v"))
		}
	}

	tmp, err := os.MkdirTemp(filepath.Dir(dir), "build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	start := time.Now()
	b := &builder{ctx: ctx, dir: moduleDir, progress: progress, start: start}
	total, err := b.resolve(pkgs, names)
	if err != nil {
		return err
	}
	args := append([]string{"build", "-v", "-o", tmp + string(os.PathSeparator), "-ldflags", ldflags() + " " + stripFlags}, pkgs...)
	if err := b.compile(args, total, names); err != nil {
		return err
	}
	for _, b := range bins {
		// go build names a binary after the last path element that is not a
		// major-version suffix: .../server/v3 becomes "server".
		built := filepath.Join(tmp, builtName(b.pkg))
		if err := os.Rename(built, filepath.Join(dir, b.name)); err != nil {
			return fmt.Errorf("installing %s: %w", b.name, err)
		}
	}
	say(progress, sayBuilt, time.Since(start).Round(time.Second))
	return nil
}

func builtName(pkg string) string {
	elems := strings.Split(pkg, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		return elems[len(elems)-2]
	}
	return last
}

// lockFile takes an exclusive flock on path, waiting until ctx is done.
func lockFile(ctx context.Context, path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err := tryLock(f)
		if err == nil {
			return func() { unlockFile(f); f.Close() }, nil
		}
		if !errors.Is(err, errLocked) {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}
