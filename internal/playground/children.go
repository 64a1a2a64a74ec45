package playground

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A playground writes down each child it starts (childrenFile, one PID a
// line), so that when it dies without stopping them the next playground can.
// On Linux the children die with their parent anyway (childAttr), so the
// record is a second line of defence; on macOS, which has no parent-death
// signal, it is the only one: after kill -9, etcd and the apiserver run on
// until the next playground starts, finds the dead owner's directory
// (owner.go) and stops them.
//
// A PID alone is not enough to kill by: once its process is gone the number
// can be given to an unrelated process. So the sweep stops a recorded PID
// only while that process's command line still names the dead playground's
// directory, which every child's does (etcd's --data-dir, the apiserver's
// --cert-dir) and which is unique (os.MkdirTemp's random name).
const childrenFile = "children"

// recordChild appends pid to dir's record of children.
func recordChild(dir string, pid int) error {
	f, err := os.OpenFile(filepath.Join(dir, childrenFile), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintln(f, pid); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// stopLeftChildren kills, with their process groups, the children recorded in
// dir that still run as this playground's children, and returns their PIDs.
// Call it only for a directory whose owner is gone.
func stopLeftChildren(dir string) []int {
	f, err := os.Open(filepath.Join(dir, childrenFile))
	if err != nil {
		return nil
	}
	defer f.Close()
	var stopped []int
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		pid, err := strconv.Atoi(strings.TrimSpace(lines.Text()))
		if err != nil || pid <= 1 {
			continue
		}
		if !isChildOf(pid, dir) {
			continue // gone, or the PID is someone else's now
		}
		killGroup(pid)
		stopped = append(stopped, pid)
	}
	return stopped
}

// isChildOf reports whether process pid runs with dir's unique name in its
// command line.
func isChildOf(pid int, dir string) bool {
	args, err := processArgs(pid)
	if err != nil {
		return false
	}
	name := filepath.Base(dir)
	for _, a := range args {
		if strings.Contains(a, name) {
			return true
		}
	}
	return false
}
