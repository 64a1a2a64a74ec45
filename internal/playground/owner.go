package playground

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// A playground's directory belongs to the process that started it for as
// long as that process lives. The proof is a lock, not a PID: the owner holds
// an exclusive flock on owner.lock, and the kernel drops it when the owner
// dies, however it dies (SIGKILL included). A PID says less: it can be
// reused by an unrelated process, and a process in another PID namespace
// sharing /tmp (a container, say) has PIDs that mean nothing here.
const ownerLock = "owner.lock"

// lockOwnership takes the lock of a directory just created, and returns the
// file to keep open: closing it (or dying) gives the directory up. The lock
// is taken on a file under a temporary name and only then renamed into
// place, so a sweeper never finds owner.lock unlocked in a live directory.
func lockOwnership(dir string) (*os.File, error) {
	tmp := filepath.Join(dir, ownerLock+".tmp")
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_RDWR|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err
	}
	if err := tryLock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, ownerLock)); err != nil {
		f.Close()
		return nil, err
	}
	// For a person looking at /tmp; the sweep does not trust it.
	_ = os.WriteFile(filepath.Join(dir, "owner.pid"), []byte(fmt.Sprintln(os.Getpid())), 0o644)
	return f, nil
}

// unownedAfter is how old a playground directory without owner.lock must be
// before the sweep removes it: such a directory comes from a start killed
// between creating it and locking it, or from a version that only wrote
// owner.pid. A fresh one may still be between those two steps.
const unownedAfter = 24 * time.Hour

// sweepStaleDirs removes the playground directories nobody owns any more:
// what a previous run killed with SIGKILL left behind. First it stops the
// children that run still (children.go): none on Linux, where they died
// with their parent, both of them on macOS.
func sweepStaleDirs() {
	entries, _ := os.ReadDir(os.TempDir())
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), dirPrefix) {
			continue
		}
		dir := filepath.Join(os.TempDir(), e.Name())
		if release, ok := claimAbandoned(dir); ok {
			stopLeftChildren(dir)
			os.RemoveAll(dir)
			release()
		}
	}
}

// claimAbandoned reports whether dir's owner is gone. When it says yes, it
// holds the dead owner's lock until release is called, so two sweepers
// cannot both decide, and a sweeper stops the children and removes the
// directory as one step.
func claimAbandoned(dir string) (release func(), ok bool) {
	f, err := os.Open(filepath.Join(dir, ownerLock))
	if errors.Is(err, os.ErrNotExist) {
		info, err := os.Stat(dir)
		return func() {}, err == nil && time.Since(info.ModTime()) > unownedAfter
	}
	if err != nil {
		return nil, false // cannot tell: leave it
	}
	if tryLock(f) != nil {
		f.Close()
		return nil, false // its owner lives
	}
	return func() { f.Close() }, true
}
