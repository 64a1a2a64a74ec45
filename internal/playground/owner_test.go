package playground

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSweepRemovesOnlyDirectoriesNobodyOwns: a directory whose owner holds
// its lock stays; one whose lock is free goes, even when owner.pid names a
// live process (a reused PID, or one from another PID namespace); one
// without a lock goes only once it is a day old.
func TestSweepRemovesOnlyDirectoriesNobodyOwns(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	mk := func(name string) string {
		dir := filepath.Join(tmp, dirPrefix+name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}

	alive := mk("alive")
	lock, err := lockOwnership(alive)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()

	// The owner died: its lock was dropped. Its PID is now someone else's
	// (ours), which the old PID check took for the owner.
	dead := mk("dead")
	deadLock, err := lockOwnership(dead)
	if err != nil {
		t.Fatal(err)
	}
	deadLock.Close()
	if err := os.WriteFile(filepath.Join(dead, "owner.pid"), []byte(fmt.Sprintln(os.Getpid())), 0o644); err != nil {
		t.Fatal(err)
	}

	fresh := mk("unlocked-fresh")
	old := mk("unlocked-old")
	dayAgo := time.Now().Add(-25 * time.Hour)
	if err := os.Chtimes(old, dayAgo, dayAgo); err != nil {
		t.Fatal(err)
	}
	notOurs := filepath.Join(tmp, "something-else")
	if err := os.Mkdir(notOurs, 0o755); err != nil {
		t.Fatal(err)
	}

	sweepStaleDirs()
	for dir, wantKept := range map[string]bool{alive: true, dead: false, fresh: true, old: false, notOurs: true} {
		_, err := os.Stat(dir)
		if kept := err == nil; kept != wantKept {
			t.Errorf("%s: kept=%v, want %v", filepath.Base(dir), kept, wantKept)
		}
	}
}
