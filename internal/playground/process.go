package playground

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// process is one child (etcd or the apiserver) with its output in a log file,
// so a failure can show the learner why the child died.
type process struct {
	name    string
	cmd     *exec.Cmd
	logPath string
	exited  chan struct{} // closed when the child has exited
	err     error         // the exit status, valid once exited is closed
}

// startProcess starts bin in its own process group, logging to logName in
// the playground's directory dir, and writes its PID down there (children.go)
// before returning, so that a playground killed before it could stop its
// children leaves a record of them.
func startProcess(dir, name, logName, bin string, args ...string) (*process, error) {
	logPath := filepath.Join(dir, logName)
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// Own process group: Ctrl-C reaches only us, and we stop the children
	// in the right order. On Linux, also a parent-death signal (childAttr).
	cmd.SysProcAttr = childAttr()
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	p := &process{name: name, cmd: cmd, logPath: logPath, exited: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		logFile.Close()
		close(p.exited)
	}()
	if err := recordChild(dir, cmd.Process.Pid); err != nil {
		p.stop(0)
		return nil, fmt.Errorf("recording %s's PID: %w", name, err)
	}
	return p, nil
}

// stop asks the child to shut down and kills it if it has not within grace.
func (p *process) stop(grace time.Duration) error {
	select {
	case <-p.exited:
		return nil
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
		return nil
	case <-time.After(grace):
	}
	killGroup(p.cmd.Process.Pid)
	select {
	case <-p.exited:
		return nil
	case <-time.After(5 * time.Second):
		return fmt.Errorf("%s (pid %d) did not exit after SIGKILL", p.name, p.cmd.Process.Pid)
	}
}

// diedError describes a child that exited on its own, with the end of its log.
// It wraps errPortTaken when the child could not bind its port.
func (p *process) diedError() error {
	tail := p.logTail(20)
	if strings.Contains(tail, "address already in use") {
		return fmt.Errorf("%s exited early (%v): %w; last lines of %s:\n%s", p.name, p.err, errPortTaken, p.logPath, tail)
	}
	return fmt.Errorf("%s exited early (%v); last lines of %s:\n%s", p.name, p.err, p.logPath, tail)
}

func (p *process) logTail(n int) string {
	b, err := os.ReadFile(p.logPath)
	if err != nil {
		return err.Error()
	}
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}

var (
	errNotReady = errors.New("not ready")
	// errPortTaken: a child's port was taken between freePorts and its bind.
	errPortTaken = errors.New("its port was taken")
)
