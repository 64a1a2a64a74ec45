package playground

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// A test binary started with sleeperEnv set sleeps instead of testing: a
// stand-in for etcd or the apiserver that a dead playground left running.
const sleeperEnv = "PLAYGROUND_TEST_SLEEPER"

func TestMain(m *testing.M) {
	if os.Getenv(sleeperEnv) != "" {
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// startSleeper starts a child the way Start starts etcd, with dir's name in
// its command line as etcd has in its --data-dir, and records it in record.
func startSleeper(t *testing.T, record, dir string) *process {
	t.Helper()
	t.Setenv(sleeperEnv, "1")
	p, err := startProcess(record, "sleeper", "sleeper.log", os.Args[0], "-test.run=^$", "--data-dir="+filepath.Join(dir, "etcd"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.stop(0) })
	return p
}

// TestSweepStopsTheChildrenADeadOwnerLeft is macOS's case, where nothing
// kills the children of a playground killed with -9: the next sweep must
// stop them, spare a recorded PID that now belongs to another process, and
// leave a live owner's children alone. The logic is the same on every
// system; only processArgs differs.
func TestSweepStopsTheChildrenADeadOwnerLeft(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	mkdir := func(name string) string {
		dir := filepath.Join(tmp, dirPrefix+name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}

	dead := mkdir("dead")
	deadLock, err := lockOwnership(dead)
	if err != nil {
		t.Fatal(err)
	}
	left := startSleeper(t, dead, dead)
	// A PID in the dead directory's record that is not its child any more:
	// the number went to another process (here, one of another playground).
	other := mkdir("other")
	reused := startSleeper(t, other, other)
	if err := recordChild(dead, reused.cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}

	alive := mkdir("alive")
	aliveLock, err := lockOwnership(alive)
	if err != nil {
		t.Fatal(err)
	}
	defer aliveLock.Close()
	owned := startSleeper(t, alive, alive)

	deadLock.Close() // the owner dies: the kernel drops its lock

	sweepStaleDirs()

	select {
	case <-left.exited:
	case <-time.After(10 * time.Second):
		t.Errorf("the dead playground's child (pid %d) still runs after the sweep", left.cmd.Process.Pid)
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the dead playground's directory is still there (err=%v)", err)
	}
	for name, p := range map[string]*process{"the reused PID": reused, "the live playground's child": owned} {
		select {
		case <-p.exited:
			t.Errorf("the sweep killed %s (pid %d)", name, p.cmd.Process.Pid)
		default:
		}
	}
}

// TestStopLeftChildrenChecksTheCommandLine: the record alone never decides;
// a process is ours only while its command line names the directory.
func TestStopLeftChildrenChecksTheCommandLine(t *testing.T) {
	dir := filepath.Join(t.TempDir(), dirPrefix+"123456789")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	stranger := exec.Command("sleep", "60") // a process that is not ours
	if err := stranger.Start(); err != nil {
		t.Skipf("no sleep command: %v", err)
	}
	defer func() { stranger.Process.Kill(); stranger.Wait() }()
	ours := startSleeper(t, dir, dir)
	for _, pid := range []int{stranger.Process.Pid, 0, 1, 999999999} {
		if err := recordChild(dir, pid); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, childrenFile+".junk"), []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	got := stopLeftChildren(dir)
	if want := []int{ours.cmd.Process.Pid}; !slices.Equal(got, want) {
		t.Errorf("stopped %v, want only our child %v", got, want)
	}
	if err := syscall.Kill(stranger.Process.Pid, 0); err != nil {
		t.Errorf("the stranger (pid %d) was killed: %v", stranger.Process.Pid, err)
	}
}

// TestProcessArgsReadsAChildsCommandLine: what isChildOf matches against
// is the command line the child was started with.
func TestProcessArgsReadsAChildsCommandLine(t *testing.T) {
	dir := filepath.Join(t.TempDir(), dirPrefix+"987654321")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := startSleeper(t, dir, dir)
	args, err := processArgs(p.cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{os.Args[0], "-test.run=^$", "--data-dir=" + filepath.Join(dir, "etcd")}
	if !slices.Equal(args, want) {
		t.Errorf("processArgs = %q, want %q", args, want)
	}
	if !isChildOf(p.cmd.Process.Pid, dir) {
		t.Errorf("isChildOf(child, %s) = false", dir)
	}
	if isChildOf(os.Getpid(), dir) {
		t.Errorf("isChildOf took the test process itself for the playground's child")
	}
}
