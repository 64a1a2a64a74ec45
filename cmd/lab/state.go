package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// What the lab command keeps between calls: which labs are started and which
// hints each has shown, the solution's files as they were when a lab started
// (to put them back), and every attempt a learner ended (never deleted by the
// command). It lives inside the git directory, in informer-lab/, where a
// recursive grep of the working tree does not look: a learner who greps for a
// log line while writing a lab finds their own code, not the saved solution.
// Outside a git checkout (a downloaded archive) it is .lab/ at the root.
const (
	gitDirName = "informer-lab"
	stateDir   = ".lab" // outside a git checkout, and where older versions kept it
)

// home is the lab command's directory for the repository at root, and
// whether it is inside a git directory.
func home(root string) (string, bool) {
	cmd := exec.Command("git", "rev-parse", "--absolute-git-dir")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return filepath.Join(root, stateDir), false
	}
	return filepath.Join(strings.TrimSpace(string(out)), gitDirName), true
}

// moveOldHome moves what an older lab command kept in .lab/ into the git
// directory, so that a lab started before the move can still be ended.
func moveOldHome(root, dir string) (moved bool, err error) {
	old := filepath.Join(root, stateDir)
	if old == dir {
		return false, nil
	}
	if _, err := os.Stat(old); err != nil {
		return false, nil
	}
	if _, err := os.Stat(dir); err == nil {
		return false, nil // both exist: leave the old one for the learner to look at
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return false, err
	}
	if err := os.Rename(old, dir); err != nil {
		return false, fmt.Errorf("moving %s into the git directory: %w", old, err)
	}
	return true, nil
}

type labState struct {
	Started time.Time `json:"started"`
	// Seen is how many hints of each function's ladder were shown.
	Seen map[string]int `json:"seen,omitempty"`
	// Files are those the lab rewrote, as the markers said at its start.
	Files []string `json:"files"`
}

// hintsSeen is how many hints were shown in all.
func (st *labState) hintsSeen() int {
	n := 0
	for _, k := range st.Seen {
		n += k
	}
	return n
}

type state struct {
	dir  string               // home(root)
	Labs map[string]*labState `json:"labs"`
}

func loadState(root string) (*state, error) {
	dir, _ := home(root)
	if _, err := moveOldHome(root, dir); err != nil {
		return nil, err
	}
	s := &state{dir: dir, Labs: map[string]*labState{}}
	path := filepath.Join(dir, "state.json")
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, s); err != nil {
		return nil, fmt.Errorf("%s: %w (delete it to start afresh)", path, err)
	}
	if s.Labs == nil {
		s.Labs = map[string]*labState{}
	}
	return s, nil
}

func (s *state) save() error {
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(s.dir, "state.json"), append(b, '\n'), 0o644)
}

func (s *state) lab(n int) *labState { return s.Labs[fmt.Sprint(n)] }

func (s *state) solutionDir(n int) string {
	return filepath.Join(s.dir, "solution", fmt.Sprintf("%02d", n))
}

func (s *state) attemptsDir() string { return filepath.Join(s.dir, "attempts") }

// latestAttempt is the newest saved attempt at lab n, or "".
func (s *state) latestAttempt(n int) string {
	all, _ := filepath.Glob(filepath.Join(s.attemptsDir(), fmt.Sprintf("%02d-*", n)))
	if len(all) == 0 {
		return ""
	}
	return all[len(all)-1] // named by time, so the last sorts last
}

// copyFiles copies files (relative paths) from one root to another.
func copyFiles(from, to string, files []string) error {
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(from, f))
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(to, f)), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, f), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// uncommitted returns git's status lines for files with changes git does
// not have, or ok=false when root is not a git checkout.
func uncommitted(root string, files []string) (lines []string, ok bool) {
	cmd := exec.Command("git", append([]string{"status", "--porcelain", "--"}, files...)...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil, false
	}
	for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if l != "" {
			lines = append(lines, "  "+l)
		}
	}
	return lines, true
}
