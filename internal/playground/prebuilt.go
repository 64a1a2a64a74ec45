package playground

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"informer-from-scratch/internal/lang"
)

// Binaries the learner already has.
//
// A first build of kube-apiserver and etcd takes minutes (build). Many who
// come to a Kubernetes workshop already have both: controller-runtime's
// envtest keeps them in a directory (`setup-envtest use -p path 1.37.x`
// prints it) that KUBEBUILDER_ASSETS names by convention. The playground
// uses such a directory when one is named and what it holds fits:
//
//	PLAYGROUND_BINARIES   ours, beside PLAYGROUND_CACHE
//	KUBEBUILDER_ASSETS    envtest's
//
// PLAYGROUND_BINARIES wins when both are set: KUBEBUILDER_ASSETS is often
// exported for a project's own envtest suite, pinned to the Kubernetes that
// project tests against, while PLAYGROUND_BINARIES is set for this course
// and nothing else. Only the winner is looked at: if it does not fit, the
// playground says why in one line and uses its own build, rather than
// trying the other and leaving the learner to guess which one ran.
//
// What fits is asked of the binaries (--version), never read from the
// directory's name, and it is one rule:
//   - kube-apiserver v1.37.x: the release the chapters, their transcripts
//     and client-go v0.37.2 belong to. A patch release changes no part of
//     the protocol the demos show; a pre-release (v1.37.0-rc.1) may, and
//     does not fit.
//   - etcd 3.7.x: the minor Kubernetes 1.37 is built and tested with (its
//     build/dependencies.yaml and hack/lib/etcd.sh say 3.7.0), the one
//     playground/go.mod builds, and the one envtest 1.37.0 ships
//     (controller-tools' hack/envtest/_matrix/v1.37.0.yaml). kubeadm accepts
//     an external etcd from 3.5.24, but the demos show etcd's side of the
//     protocol (compaction and 410 Gone, progress notifications behind
//     bookmarks), and what they show was measured on 3.7.
//
// Every run that uses them says so on progress, the playground's first
// lines: which binaries, from where, which versions. An exported variable
// never changes what a demo or make test talks to silently.
const (
	// BinariesEnv names the course's own variable for the directory.
	BinariesEnv = "PLAYGROUND_BINARIES"
	// EnvtestEnv names envtest's, read when BinariesEnv is not set.
	EnvtestEnv = "KUBEBUILDER_ASSETS"
)

// EtcdVersion is the etcd the playground builds: playground/go.mod's
// go.etcd.io/etcd/server/v3, as etcd --version says it (no "v").
const EtcdVersion = "3.7.0"

// A version probe: how to ask one binary for its version, where the
// version is in its answer, and which versions fit.
type probe struct {
	bin  binary
	args []string
	said *regexp.Regexp // the version in the answer, its first group
	fits *regexp.Regexp
	want string // the versions that fit, as a person says them
}

// fitting matches the versions of one minor: any patch, build metadata
// allowed (v1.37.2+k3s1 is 1.37.2), a pre-release not.
func fitting(minor string) *regexp.Regexp {
	return regexp.MustCompile(`^` + regexp.QuoteMeta(minor) + `\.[0-9]+(\+.*)?$`)
}

// minorOf is "v1.37" for "v1.37.1".
func minorOf(version string) string {
	return version[:strings.LastIndex(version, ".")]
}

var (
	apiserverProbe = probe{apiserverPkg, []string{"--version"},
		regexp.MustCompile(`(?m)^Kubernetes (\S+)$`), fitting(minorOf(KubernetesVersion)), minorOf(KubernetesVersion) + ".x"}
	etcdProbe = probe{etcdPkg, []string{"--version"},
		regexp.MustCompile(`(?m)^etcd Version: (\S+)$`), fitting(minorOf(EtcdVersion)), minorOf(EtcdVersion) + ".x"}
	kubectlProbe = probe{kubectlPkg, []string{"version", "--client"},
		regexp.MustCompile(`(?m)^Client Version: (\S+)$`), fitting(minorOf(KubernetesVersion)), minorOf(KubernetesVersion) + ".x"}
)

// probeTimeout bounds one --version: a binary that hangs there is not one
// to run a playground on.
const probeTimeout = 10 * time.Second

// ask runs the probe on the binary in dir and returns its version, or why
// it has none that fits, as a clause of the one line prebuilt says (nil
// when it fits).
func (p probe) ask(ctx context.Context, dir string) (version string, whyNot *lang.Text) {
	why := func(t lang.Text, args ...any) *lang.Text { t = t.Format(args...); return &t }
	path := filepath.Join(dir, p.bin.name)
	info, err := os.Stat(path)
	switch {
	case err != nil:
		return "", why(sayNoBinary, p.bin.name)
	case !info.Mode().IsRegular():
		return "", why(sayNotAFile, p.bin.name)
	case info.Mode().Perm()&0o111 == 0:
		return "", why(sayNotExec, p.bin.name)
	}
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, p.args...)
	// A child that keeps the output open must not hold us after it exits.
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	m := p.said.FindSubmatch(out)
	if err != nil || m == nil {
		// exec format error here is a binary for another system or
		// architecture, the usual reason on a laptop.
		return "", why(sayUnreadable, p.bin.name, p.bin.name, strings.Join(p.args, " "), unreadable(err, out))
	}
	v := string(m[1])
	if !p.fits.MatchString(v) {
		return v, why(sayWrongVersion, p.bin.name, v, p.want)
	}
	return v, nil
}

// unreadable says what a probe got instead of a version, on one line.
func unreadable(err error, out []byte) lang.Text {
	var pathErr *fs.PathError
	switch {
	case errors.As(err, &pathErr):
		return lang.Verbatim(pathErr.Err.Error()) // the path is in the line already
	case err != nil:
		return lang.Verbatim(err.Error())
	}
	first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	if first == "" {
		return sayPrintedNone
	}
	return sayPrinted.Format(first)
}

// prebuilt returns the binaries in the directory the environment names,
// when they fit; it says on progress, in one line, that it uses them or
// why it does not. ok is false when no directory is named or its
// kube-apiserver and etcd do not fit: then the playground builds its own,
// as without the variable. When kubectl is wanted and the directory's does
// not fit, bins.Kubectl is empty and the line says so: ensure builds it.
func prebuilt(ctx context.Context, progress io.Writer, withKubectl bool) (bins Binaries, ok bool) {
	from, dir := namedDir()
	if dir == "" {
		return Binaries{}, false
	}
	named := fmt.Sprintf("$%s (%s)", from, dir)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		say(progress, sayNotUsing, named, sayNoDirectory)
		return Binaries{}, false
	}
	apiVersion, apiWhy := apiserverProbe.ask(ctx, dir)
	etcdVersion, etcdWhy := etcdProbe.ask(ctx, dir)
	if apiWhy != nil || etcdWhy != nil {
		say(progress, sayNotUsing, named, joinNonEmpty(apiWhy, etcdWhy))
		return Binaries{}, false
	}
	bins = Binaries{
		Dir:              dir,
		APIServer:        filepath.Join(dir, apiserverPkg.name),
		Etcd:             filepath.Join(dir, etcdPkg.name),
		From:             from,
		APIServerVersion: apiVersion,
		EtcdVersion:      etcdVersion,
	}
	what := sayWhat2.Format(apiVersion, etcdVersion)
	var kubectlWhy *lang.Text
	if withKubectl {
		var kubectlVersion string
		if kubectlVersion, kubectlWhy = kubectlProbe.ask(ctx, dir); kubectlWhy == nil {
			bins.Kubectl = filepath.Join(dir, kubectlPkg.name)
			what = sayWhat3.Format(apiVersion, etcdVersion, kubectlVersion)
		}
	}
	say(progress, sayUsing, what, named)
	if kubectlWhy != nil {
		say(progress, sayKubectlOwn, *kubectlWhy)
	}
	say(progress, lang.Verbatim("\n"))
	return bins, true
}

// namedDir is the directory the environment names for prebuilt binaries
// and the variable that names it; PLAYGROUND_BINARIES wins (see above).
func namedDir() (from, dir string) {
	for _, env := range []string{BinariesEnv, EnvtestEnv} {
		if dir := os.Getenv(env); dir != "" {
			return env, dir
		}
	}
	return "", ""
}

// joinNonEmpty is the reasons given, as one clause after another.
func joinNonEmpty(parts ...*lang.Text) lang.Text {
	var kept []lang.Text
	for _, p := range parts {
		if p != nil {
			kept = append(kept, *p)
		}
	}
	joined := kept[0]
	for _, k := range kept[1:] {
		joined = lang.Verbatim("%s%s%s").Format(joined, saySemicolon, k)
	}
	return joined
}
