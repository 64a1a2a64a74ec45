// Command lab runs the build-it-yourself labs: each lab hands a learner a
// stage's core functions as stubs that state their contract, grades what
// they write with the stage's differential tests against client-go, gives
// hints one rung at a time, and puts the solution back. The Makefile's lab
// targets call it:
//
//	make lab                  list the labs
//	make lab-start N          replace lab N's functions with stubs
//	make lab-check N          grade them
//	make lab-hint N [FUNC]    the next hint for a function (ARGS=--lang=zh for Chinese)
//	make lab-solution N       save your code aside and put the solution back
//	make lab-diff N           your code (or your last attempt) beside the solution
//	make lab-wrong N [NAME]   the wrong answers the grader rejects, and one graded
//	make lab-mutants N        mutate the solution, grade each mutant (for maintainers)
//
// For maintainers, without make: hints-unpack DIR and hints-pack DIR decode
// the hint files to edit them and encode them back; wrong-answer-from N
// FILE.go turns a whole wrong function into the edit script kept in
// testdata/labNN, and wrong-answers-export N DIR writes them all back as
// whole functions, to mend after a change to the solution.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"informer-from-scratch/internal/lang"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		if errors.Is(err, errFailed) {
			os.Exit(1)
		}
		os.Exit(2)
	}
}

// errFailed is a check that graded the code and found it not done yet.
var errFailed = errors.New("")

const usage = `usage: lab [--lang=en|zh] [--all] list | start N | check N | hint N [FUNC] | solution N | diff N | wrong N [NAME] | mutants N\n       lab hints-unpack DIR | hints-pack DIR | wrong-answer-from N FILE.go | wrong-answers-export N DIR`

func run(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("lab", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	langFlag := fs.String("lang", "", "en or zh; the locale's language by default")
	root := fs.String("root", "", "the repository's root; found from the working directory by default")
	overlay := fs.String("overlay", "", "check: grade with this go build -overlay file (make test uses it)")
	all := fs.Bool("all", false, "hint: every ladder of the lab, whole (for instructors)")
	mopts := mutantFlags(fs)
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%v\n%s", err, usage)
	}
	l, err := lang.Parse(*langFlag)
	if err != nil {
		return err
	}
	m := messagesFor(l)
	if *root == "" {
		if *root, err = findRoot(); err != nil {
			return err
		}
	}
	rest := fs.Args()
	if len(rest) == 0 || rest[0] == "list" {
		return list(w, *root, m)
	}
	switch rest[0] {
	case "hints-unpack", "hints-pack":
		if len(rest) != 2 {
			return errors.New(usage)
		}
		if rest[0] == "hints-unpack" {
			return unpackHints(*root, rest[1])
		}
		return packHints(*root, rest[1])
	}
	if len(rest) == 1 {
		return fmt.Errorf("which lab? make lab-%s N, with N a lab number (make lab lists them)", rest[0])
	}
	extra := rest[2:]
	if len(extra) > 1 || (len(extra) == 1 && !slices.Contains([]string{"hint", "wrong", "wrong-answer-from", "wrong-answers-export"}, rest[0])) {
		return errors.New(usage)
	}
	arg := strings.Join(extra, "")
	n, err := strconv.Atoi(strings.TrimSpace(rest[1]))
	if err != nil {
		return fmt.Errorf("%q is not a lab number\n%s", rest[1], usage)
	}
	lab, err := lookup(n)
	if err != nil {
		return err
	}
	switch rest[0] {
	case "start":
		return start(w, *root, lab, m)
	case "check":
		return check(w, *root, lab, *overlay, m)
	case "hint":
		if *all {
			return allHints(w, lab, l, m)
		}
		return nextHint(w, *root, lab, arg, l, m)
	case "solution":
		return restore(w, *root, lab, m)
	case "diff":
		return diffAttempt(w, *root, lab, m)
	case "wrong":
		return wrongAnswers(w, *root, lab, arg, m)
	case "mutants":
		return mutants(w, *root, lab, *mopts)
	case "wrong-answer-from":
		return wrongAnswerFrom(w, *root, lab, arg)
	case "wrong-answers-export":
		return exportWrongAnswers(*root, lab, arg)
	}
	return errors.New(usage)
}

// findRoot walks up from the working directory to the module's go.mod.
func findRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.HasPrefix(string(b), "module informer-from-scratch") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run lab inside the informer-from-scratch repository")
		}
		dir = parent
	}
}

func list(w io.Writer, root string, m messages) error {
	s, err := loadState(root)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, m.listHeader)
	fmt.Fprintln(w)
	for _, l := range labs {
		status := m.listSolution
		if st := s.lab(l.N); st != nil {
			status = fmt.Sprintf(m.listStarted, st.Started.Local().Format("2006-01-02 15:04"), st.hintsSeen())
		}
		funcs, err := l.marked(root)
		if err != nil {
			return err
		}
		var names []string
		for _, f := range funcs {
			names = append(names, f.Name)
		}
		fmt.Fprintf(w, "  %d  %-23s %s (%s min)\n     %s\n     [%s]\n", l.N, l.Stage, l.Title, l.Minutes, strings.Join(names, ", "), status)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, m.listFooter)
	return nil
}

func start(w io.Writer, root string, l *Lab, m messages) error {
	s, err := loadState(root)
	if err != nil {
		return err
	}
	if st := s.lab(l.N); st != nil {
		fmt.Fprintf(w, m.alreadyStarted+"\n", l.N, st.Started.Local().Format("2006-01-02 15:04"), l.N, l.N)
		return nil
	}
	files, err := l.files(root)
	if err != nil {
		return err
	}
	dirty, isGit := uncommitted(root, files)
	if len(dirty) > 0 {
		return fmt.Errorf(m.dirty, l.N, strings.Join(files, ", "), strings.Join(dirty, "\n"))
	}
	skeleton, err := l.skeleton(root)
	if err != nil {
		return err
	}
	if err := copyFiles(root, s.solutionDir(l.N), files); err != nil {
		return err
	}
	if !isGit {
		fmt.Fprintf(w, m.notGit+"\n", s.solutionDir(l.N))
	}
	for file, src := range skeleton {
		if err := os.WriteFile(filepath.Join(root, file), src, 0o644); err != nil {
			return err
		}
	}
	s.Labs[fmt.Sprint(l.N)] = &labState{Started: time.Now(), Files: files}
	if err := s.save(); err != nil {
		return err
	}
	funcs, _ := l.marked(root)
	var b strings.Builder
	for _, f := range funcs {
		fmt.Fprintf(&b, "  %-26s %s\n", f.Name, f.File)
	}
	fmt.Fprintf(w, m.started, l.N, l.Title, b.String(), l.page(), l.N, l.N, l.N)
	return nil
}

func check(w io.Writer, root string, l *Lab, overlay string, m messages) error {
	s, err := loadState(root)
	if err != nil {
		return err
	}
	if s.lab(l.N) == nil && overlay == "" {
		fmt.Fprintf(w, m.gradingSolution+"\n\n", l.N)
	}
	g, err := l.grade(root, overlay)
	if err != nil {
		return err
	}
	g.report(w, l, m)
	race := ""
	if l.Race {
		race = m.thenRace
	}
	fmt.Fprintf(w, "\n(go test -count=1 %s-run '%s' %s%s)\n", flagsOf(l), l.runPattern(), strings.Join(l.Packages, " "), race)
	if !g.passed(l) {
		return errFailed
	}
	return nil
}

func restore(w io.Writer, root string, l *Lab, m messages) error {
	s, err := loadState(root)
	if err != nil {
		return err
	}
	st := s.lab(l.N)
	if st == nil {
		fmt.Fprintf(w, m.nothingToRestore+"\n", l.N)
		return nil
	}
	files := st.Files
	attempt := filepath.Join(s.attemptsDir(), fmt.Sprintf("%02d-%s", l.N, time.Now().Format("20060102-150405")))
	if err := copyFiles(root, attempt, files); err != nil {
		return err
	}
	if err := copyFiles(s.solutionDir(l.N), root, files); err != nil {
		return err
	}
	delete(s.Labs, fmt.Sprint(l.N))
	if err := s.save(); err != nil {
		return err
	}
	fmt.Fprintf(w, m.restored+"\n", l.N, strings.Join(files, ", "), attempt, l.N)
	return nil
}

// flagsOf is the lab's own go test flags as the printed command shows them.
func flagsOf(l *Lab) string {
	if len(l.Flags) == 0 {
		return ""
	}
	return strings.Join(l.Flags, " ") + " "
}
