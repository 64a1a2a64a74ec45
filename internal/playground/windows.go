//go:build windows

package playground

import (
	"errors"
	"os"
	"syscall"
)

// Native Windows is not a target: the playground needs process groups, file
// locks and signals as Linux and macOS have them. On Windows, run the course
// in WSL 2 (a Linux), as the README says. The line below is the only one
// that fails to compile on Windows, so that a build there stops with this
// sentence rather than with errors about calls the learner never heard of.
const _ = The_course_runs_on_Linux_and_macOS_only__on_Windows_run_it_inside_WSL_2__see_the_README

// Stand-ins for unix.go and the procattr and procargs files, so that the
// line above is the build's only error.
var errLocked = errors.New("locked")

func tryLock(*os.File) error            { return errors.ErrUnsupported }
func unlockFile(*os.File)               {}
func killGroup(int)                     {}
func childAttr() *syscall.SysProcAttr   { return nil }
func processArgs(int) ([]string, error) { return nil, errors.ErrUnsupported }
