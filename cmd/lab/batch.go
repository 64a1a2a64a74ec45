package main

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// debugf prints how long each step of a batch takes, with LAB_DEBUG=1.
func debugf(format string, args ...any) {
	if os.Getenv("LAB_DEBUG") != "" {
		fmt.Fprintf(os.Stderr, "lab: "+format+"\n", args...)
	}
}

// Grading many versions of a lab's functions (its skeleton, each wrong
// answer, each mutant) one go test at a time builds and links a test binary
// for every one: minutes for a lab, most of it the linker. A batch builds
// one binary holding every version: each marked function becomes
//
//	switch zzLabVariant {
//	case 3:
//		return f.zzPop_v3(process) // version 3's body, in a function of its own
//	case 7:
//		return f.zzPop_v7(process)
//	default:
//		<the solution's body>
//	}
//
// and the binary runs once per version, with LAB_VARIANT choosing it. A body
// keeps its meaning in its own function: its returns return, its
// defers run when the function returns, its variables are its own, and a
// break inside it belongs to a loop, switch or select of its own. The
// graded tests, their flags and their timeout are the check's; only how
// the binary was built differs.

// variantEnv chooses the version in a batch binary.
const variantEnv = "LAB_VARIANT"

// version is one set of bodies: marked function → body; the functions it
// does not name keep the solution's. Flags are extra go test flags it needs
// ("-race": graded only under the race detector); FailFast stops at its
// first failure (a wrong answer only has to fail once).
type version struct {
	Bodies   map[string]string
	Flags    []string
	FailFast bool
}

// batchResult is what grading one version found.
type batchResult struct {
	Grade   *grade
	Invalid []string // the compiler's messages, when the version does not compile
}

// gradeBatch grades every version as the check grades a learner's code,
// jobs at a time.
func (l *Lab) gradeBatch(root string, versions []version, jobs int) ([]batchResult, error) {
	results := make([]batchResult, len(versions))
	if _, err := l.batchFiles(root, versions[:0], nil); err != nil {
		// A function the batch cannot forward to (a parameter without a
		// name): graded one build at a time.
		return l.gradeOneByOne(root, versions)
	}
	alive, err := l.dropInvalid(root, versions, results)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "lab-batch-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	overlay, err := l.batchOverlay(root, dir, versions, alive)
	if err != nil {
		return nil, err
	}
	plain, err := l.buildTests(root, dir, overlay, false)
	if err != nil {
		return nil, err
	}
	var race map[string]string
	needRace := func(i int) bool { return slices.Contains(versions[i].Flags, "-race") }
	raceBinaries := func() (map[string]string, error) {
		if race == nil {
			r, err := l.buildTests(root, dir, overlay, true)
			if err != nil {
				return nil, err
			}
			race = r
		}
		return race, nil
	}
	var mu sync.Mutex
	var firstErr error
	work := make(chan int)
	var wg sync.WaitGroup
	for range max(jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				var err error
				bins := plain
				if needRace(i) {
					mu.Lock()
					bins, err = raceBinaries()
					mu.Unlock()
				}
				var g *grade
				if err == nil {
					g, err = l.runBatch(root, bins, i, versions[i].FailFast)
				}
				if err == nil && !needRace(i) && l.Race && g.passed(l) {
					mu.Lock()
					bins, err = raceBinaries()
					mu.Unlock()
					if err == nil {
						g, err = l.runBatch(root, bins, i, versions[i].FailFast)
						g.raced = true
					}
				}
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				results[i].Grade = g
				mu.Unlock()
			}
		}()
	}
	for _, i := range alive {
		work <- i
	}
	close(work)
	wg.Wait()
	return results, firstErr
}

// gradeOneByOne grades each version with a go test of its own.
func (l *Lab) gradeOneByOne(root string, versions []version) ([]batchResult, error) {
	results := make([]batchResult, len(versions))
	for i, v := range versions {
		files, err := l.withBodies(root, v.Bodies)
		if err != nil {
			return nil, err
		}
		overlay, cleanup, err := writeOverlay(root, files)
		if err != nil {
			return nil, err
		}
		var extra []string
		if v.FailFast {
			extra = append(extra, "-failfast")
		}
		l2 := *l
		l2.Flags = slices.Concat(l.Flags, v.Flags)
		g, err := l2.grade(root, overlay, extra...)
		cleanup()
		if err != nil {
			return nil, err
		}
		if len(g.buildError) > 0 {
			results[i].Invalid = g.buildError
			continue
		}
		results[i].Grade = g
	}
	return results, nil
}

// batchFiles are the lab's files with every marked function switching
// between the versions in alive (indices into versions), plus a file per
// package that reads the variant from the environment. Version k of a
// function F is a function of its own, zzF_vk, with F's signature and that
// version's body, so that the compiler's complaints about a version (a
// missing return, a variable declared and not used) land in it; F calls it.
func (l *Lab) batchFiles(root string, versions []version, alive []int) (variant, error) {
	pkgs := map[string]string{} // directory → package name
	extra := map[string]*strings.Builder{}
	files, err := l.substitute(root, func(src source, fd *ast.FuncDecl, name string) (string, error) {
		call, err := forwardCall(src, fd)
		if err != nil {
			return "", err
		}
		var b strings.Builder
		b.WriteString("\n\tswitch zzLabVariant {\n")
		for _, i := range alive {
			body, ok := versions[i].Bodies[name]
			if !ok {
				continue
			}
			helper := fmt.Sprintf("zz%s_v%d", fd.Name.Name, i+1)
			if fd.Type.Results != nil && len(fd.Type.Results.List) > 0 {
				fmt.Fprintf(&b, "\tcase %d:\n\t\treturn %s\n", i+1, fmt.Sprintf(call, helper))
			} else {
				fmt.Fprintf(&b, "\tcase %d:\n\t\t%s\n\t\treturn\n", i+1, fmt.Sprintf(call, helper))
			}
			file := src.fset.Position(fd.Pos()).Filename
			if extra[file] == nil {
				extra[file] = &strings.Builder{}
			}
			fmt.Fprintf(extra[file], "\n%s {%s}\n", renamedHeader(src, fd, helper), body)
		}
		fmt.Fprintf(&b, "\tdefault:\n%s\n\t}\n", src.body(fd))
		return b.String(), nil
	})
	if err != nil {
		return nil, err
	}
	for file, src := range files {
		name, err := packageName(src)
		if err != nil {
			return nil, err
		}
		pkgs[filepath.Dir(file)] = name
		if more := extra[filepath.Join(root, file)]; more != nil {
			files[file] = append(src, more.String()...)
		}
	}
	for dir, name := range pkgs {
		files[filepath.ToSlash(filepath.Join(dir, "zz_lab_variant.go"))] = []byte(fmt.Sprintf(
			"package %s\n\nimport (\n\t\"os\"\n\t\"strconv\"\n)\n\n// zzLabVariant is the version of the lab's functions a batch binary runs (cmd/lab/batch.go).\nvar zzLabVariant, _ = strconv.Atoi(os.Getenv(%q))\n",
			name, variantEnv))
	}
	return files, nil
}

// renamedHeader is fd's declaration up to its body, named name.
func renamedHeader(src source, fd *ast.FuncDecl, name string) string {
	off := func(p token.Pos) int { return src.fset.Position(p).Offset }
	return string(src.src[off(fd.Pos()):off(fd.Name.Pos())]) + name + string(src.src[off(fd.Name.End()):off(fd.Body.Lbrace)])
}

// forwardCall is the call of a function with fd's receiver and parameters,
// its name left as %s: "f.%s(process)".
func forwardCall(src source, fd *ast.FuncDecl) (string, error) {
	var args []string
	for _, field := range fd.Type.Params.List {
		names := field.Names
		if len(names) == 0 {
			names = []*ast.Ident{{Name: "_"}}
		}
		for _, n := range names {
			_, variadic := field.Type.(*ast.Ellipsis)
			switch {
			case n.Name != "_" && variadic:
				args = append(args, n.Name+"...")
			case n.Name != "_":
				args = append(args, n.Name)
			case variadic:
				args = append(args, "nil...")
			default:
				// A parameter no body can read: any value of its type.
				args = append(args, "*new("+string(src.src[src.fset.Position(field.Type.Pos()).Offset:src.fset.Position(field.Type.End()).Offset])+")")
			}
		}
	}
	call := "%s(" + strings.Join(args, ", ") + ")"
	if fd.Recv == nil {
		if fd.Type.TypeParams != nil {
			return "", fmt.Errorf("%s: a generic function", fd.Name.Name)
		}
		return call, nil
	}
	if len(fd.Recv.List[0].Names) == 0 || fd.Recv.List[0].Names[0].Name == "_" {
		return "", fmt.Errorf("%s: a receiver without a name", fd.Name.Name)
	}
	return fd.Recv.List[0].Names[0].Name + "." + call, nil
}

var packageClause = regexp.MustCompile(`(?m)^package (\w+)`)

func packageName(src []byte) (string, error) {
	m := packageClause.FindSubmatch(src)
	if m == nil {
		return "", fmt.Errorf("no package clause")
	}
	return string(m[1]), nil
}

// dropInvalid compiles the versions together and takes out, round by
// round, each one the compiler points at, recording its messages.
func (l *Lab) dropInvalid(root string, versions []version, results []batchResult) ([]int, error) {
	var alive []int
	for i := range versions {
		alive = append(alive, i)
	}
	for round := 0; ; round++ {
		files, err := l.batchFiles(root, versions, alive)
		if err != nil {
			return nil, err
		}
		overlay, cleanup, err := writeOverlay(root, files)
		if err != nil {
			return nil, err
		}
		cmd := exec.Command(goCommand(), "build", "-gcflags=-e", "-overlay", overlay)
		cmd.Args = append(cmd.Args, l.Packages...)
		cmd.Dir = root
		t0 := time.Now()
		out, err := cmd.CombinedOutput()
		if err == nil {
			// go test vets what it builds, and a version that fails its
			// checks ("suspect or: x != a || x != b") fails the check as
			// one that does not compile does; left in, it would fail the
			// batch's one build.
			vet := exec.Command(goCommand(), slices.Concat([]string{"vet", "-overlay", overlay}, goTestVetChecks, l.Packages)...)
			vet.Dir = root
			out, err = vet.CombinedOutput()
		}
		debugf("compile round %d: %s", round, time.Since(t0).Round(time.Millisecond))
		cleanup()
		if err == nil {
			return alive, nil
		}
		bad := l.versionsAt(root, files, out, alive)
		if len(bad) == 0 || round > 20 {
			return nil, fmt.Errorf("lab %d: the batch of versions does not compile, and no version is to blame:\n%s", l.N, out)
		}
		for i, msgs := range bad {
			results[i].Invalid = msgs
		}
		alive = slices.DeleteFunc(alive, func(i int) bool { _, ok := bad[i]; return ok })
	}
}

// goTestVetChecks are the go vet checks go test runs (go help test).
var goTestVetChecks = []string{"-atomic", "-bool", "-buildtags", "-directive", "-errorsas", "-ifaceassert", "-nilfunc", "-printf", "-stringintconv", "-tests"}

var compileError = regexp.MustCompile(`(?m)^(?:\./)?([^\s:]+\.go):(\d+):\d+: (.*)$`)

// versionsAt maps the compiler's messages to the versions whose case they
// are in.
func (l *Lab) versionsAt(root string, files variant, out []byte, alive []int) map[int][]string {
	bad := map[int][]string{}
	for _, m := range compileError.FindAllSubmatch(out, -1) {
		file, line := string(m[1]), 0
		line, _ = strconv.Atoi(string(m[2]))
		for name, src := range files {
			if !strings.HasSuffix(filepath.ToSlash(file), filepath.Base(name)) {
				continue
			}
			if i := caseAt(src, line); i >= 0 && slices.Contains(alive, i) {
				bad[i] = append(bad[i], string(m[0]))
			}
		}
	}
	return bad
}

var helperLine = regexp.MustCompile(`^func (?:\([^)]*\) )?zz\w+_v(\d+)[\[(]`)

// caseAt is the version whose function holds line (1-based) of src, or -1.
func caseAt(src []byte, line int) int {
	lines := bytes.Split(src, []byte("\n"))
	for k := min(line, len(lines)) - 1; k >= 0; k-- {
		l := string(lines[k])
		if m := helperLine.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			return n - 1
		}
		if strings.HasPrefix(l, "func ") {
			return -1
		}
	}
	return -1
}

// batchOverlay writes the batch's files and their overlay into dir.
func (l *Lab) batchOverlay(root, dir string, versions []version, alive []int) (string, error) {
	files, err := l.batchFiles(root, versions, alive)
	if err != nil {
		return "", err
	}
	overlay, _, err := writeOverlayIn(root, dir, files)
	return overlay, err
}

// buildTests builds a test binary for each of the lab's packages.
func (l *Lab) buildTests(root, dir, overlay string, race bool) (map[string]string, error) {
	bins := map[string]string{}
	for k, pkg := range l.Packages {
		bin := filepath.Join(dir, fmt.Sprintf("pkg%d.test", k))
		if race {
			bin = filepath.Join(dir, fmt.Sprintf("pkg%d-race.test", k))
		}
		args := []string{"test", "-c", "-o", bin, "-overlay", overlay}
		if race {
			args = append(args, "-race")
		}
		cmd := exec.Command(goCommand(), append(args, pkg)...)
		cmd.Dir = root
		t0 := time.Now()
		defer func() { debugf("build %s race=%v: %s", pkg, race, time.Since(t0).Round(time.Millisecond)) }()
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("lab %d: building the batch's tests for %s: %v\n%s", l.N, pkg, err, out)
		}
		bins[pkg] = bin
	}
	return bins, nil
}

// runBatch runs the graded tests of each package's binary with version i,
// as go test would (in the package's directory, through test2json), and
// grades the events together.
func (l *Lab) runBatch(root string, bins map[string]string, i int, failfast bool) (*grade, error) {
	var events bytes.Buffer
	for _, pkg := range l.Packages {
		args := []string{"tool", "test2json", "-t", bins[pkg], "-test.v=test2json", "-test.paniconexit0",
			"-test.run", l.runPattern(), "-test.timeout", l.Timeout, "-test.count=1"}
		if failfast {
			args = append(args, "-test.failfast")
		}
		cmd := exec.CommandContext(context.Background(), goCommand(), args...)
		cmd.Dir = filepath.Join(root, pkg)
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", variantEnv, i+1))
		t0 := time.Now()
		out, err := cmd.Output()
		if _, isExit := err.(*exec.ExitError); err != nil && !isExit {
			return nil, fmt.Errorf("running %s: %w", bins[pkg], err)
		}
		debugf("version %d, %s: %s", i+1, pkg, time.Since(t0).Round(time.Millisecond))
		events.Write(out)
	}
	return parseEvents(&events, l), nil
}
