//go:build unix

package playground

import (
	"os"
	"syscall"
)

// The few calls the playground makes that exist on Linux and macOS alike
// but not on Windows (see windows.go). What differs between Linux and macOS
// sits in procattr_*.go and procargs_*.go.

// errLocked is tryLock's answer when another process holds the lock.
var errLocked = syscall.EWOULDBLOCK

// tryLock takes an exclusive flock on f without waiting. The kernel drops
// it when f is closed or its process dies, however it dies.
func tryLock(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// unlockFile drops the flock on f.
func unlockFile(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// killGroup sends SIGKILL to the process group pid leads (each child leads
// its own, see childAttr), then to pid itself, in case it left the group.
func killGroup(pid int) {
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	_ = syscall.Kill(pid, syscall.SIGKILL)
}
