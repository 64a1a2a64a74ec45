package playground

import "syscall"

// childAttr puts a child in a process group of its own and, on Linux, asks
// the kernel to SIGKILL it when its parent dies, so a playground killed with
// -9 leaves no process behind. Linux sends the signal when the *thread* that
// started the child exits, not the process (golang/go#27505). Go keeps its
// threads for the life of the process unless a goroutine locked to one
// exits, which nothing here does, so in practice the children die with us;
// the record in children.go is there for the rest, and Stop remains the
// orderly way.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
