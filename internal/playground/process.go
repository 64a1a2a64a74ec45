package playground

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
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

func startProcess(name, logPath, bin string, args ...string) (*process, error) {
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{
		// Own process group: Ctrl-C reaches only us, and we stop the children
		// in the right order.
		Setpgid: true,
		// SIGKILL the child when its parent dies, so a playground killed
		// with -9 leaves no orphans. Linux sends it when the *thread* that
		// started the child exits, not the process (golang/go#27505). Go
		// keeps its threads for the life of the process unless a goroutine
		// locked to one exits, which nothing here does, so in practice the
		// children die with us; Stop remains the orderly way.
		Pdeathsig: syscall.SIGKILL,
	}
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
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
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
