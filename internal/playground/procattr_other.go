//go:build unix && !linux

package playground

import "syscall"

// childAttr puts a child in a process group of its own. macOS has no
// parent-death signal: children that outlive a playground killed with -9
// are stopped by the next playground to start, from the record it left
// (children.go).
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
