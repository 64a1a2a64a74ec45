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

// What the lab command keeps between calls, in .lab/ at the repository's
// root (git ignores it): which labs are started and how many hints each has
// shown, the solution's files as they were when a lab started (to put them
// back), and every attempt a learner ended (never deleted by the command).
const stateDir = ".lab"

type labState struct {
	Started time.Time `json:"started"`
	Hints   int       `json:"hints"`
	// Files are those the lab rewrote, as the markers said at its start.
	Files []string `json:"files"`
}

type state struct {
	root string
	Labs map[string]*labState `json:"labs"`
}

func loadState(root string) (*state, error) {
	s := &state{root: root, Labs: map[string]*labState{}}
	b, err := os.ReadFile(filepath.Join(root, stateDir, "state.json"))
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, s); err != nil {
		return nil, fmt.Errorf("%s: %w (delete it to start afresh)", filepath.Join(stateDir, "state.json"), err)
	}
	if s.Labs == nil {
		s.Labs = map[string]*labState{}
	}
	return s, nil
}

func (s *state) save() error {
	if err := os.MkdirAll(filepath.Join(s.root, stateDir), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(s.root, stateDir, "state.json"), append(b, '\n'), 0o644)
}

func (s *state) lab(n int) *labState { return s.Labs[fmt.Sprint(n)] }

func solutionDir(root string, n int) string {
	return filepath.Join(root, stateDir, "solution", fmt.Sprintf("%02d", n))
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
