// Command testprogress runs go test and says what it is waiting for. make
// test calls it for its go test step:
//
//	testprogress -slowest=12 -race -timeout 30m ./...
//
// runs go test -json -race -timeout 30m ./... ($GO, or go) and prints what
// plain go test prints: an ok, ? or FAIL line per package, the output of
// every test that failed, build errors (on stderr, as go test does), and a
// last FAIL line when a package failed; and it ends with go test's exit
// status. Plain go test prints each package when every package before it
// has ended, so one slow package holds every line back (74 and 101 seconds
// of silence were seen in one make test): this prints each package as soon
// as it ends, and when nothing has been printed for 15 seconds it says
// which packages are running, and for how long, as the playground build
// does (internal/playground/buildprogress.go):
//
//	still testing: ./06-sharedinformer/demo (1m20s), ./proving-ground/chaos (35s); 41 packages done
//
// With -slowest=N first, it ends with the N packages whose tests ran
// longest and the time go test ran, so the loop's time can be read off.
//
// Two differences from plain go test, both forced by the stream -json
// gives: packages come in the order they end, not in the command line's;
// and a failed test's output comes as go test -v prints it (its === RUN
// line, its log lines as they happened, then its --- FAIL line), with the
// output of the tests around it that passed left out, because the stream
// is -v's and does not tell a t.Log line from one the test wrote itself,
// which plain go test places differently.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"time"
)

// silence is how long the output may stay still before a progress line.
const silence = 15 * time.Second

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs go test -json with args, reports its stream on out and errOut,
// and returns go test's exit status.
func run(args []string, out, errOut io.Writer) int {
	slowest := 0
	if len(args) > 0 {
		if n, ok := strings.CutPrefix(args[0], "-slowest="); ok {
			if _, err := fmt.Sscanf(n, "%d", &slowest); err != nil {
				fmt.Fprintf(errOut, "testprogress: -slowest=%s: not a number\n", n)
				return 2
			}
			args = args[1:]
		}
	}
	goCmd := os.Getenv("GO")
	if goCmd == "" {
		goCmd = "go"
	}
	cmd := exec.Command(goCmd, append([]string{"test", "-json"}, args...)...)
	cmd.Stderr = errOut
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintf(errOut, "testprogress: %v\n", err)
		return 1
	}
	// Ctrl-C reaches go test too (the terminal signals the whole process
	// group): go test stops its test binaries and reports what ended, and
	// this stays to print it and return go test's status. Notify, not
	// Ignore: an ignored signal would stay ignored in go test.
	interrupted := make(chan os.Signal, 1)
	signal.Notify(interrupted, os.Interrupt)
	defer signal.Stop(interrupted)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(errOut, "testprogress: %v\n", err)
		return 1
	}

	r := newReport(out, errOut, modulePath("go.mod"), time.Now())
	r.slowest = slowest
	lines := make(chan string)
	go func() {
		defer close(lines)
		br := bufio.NewReader(stdout)
		for {
			// ReadString, not a Scanner: a test's output line has no length limit.
			line, err := br.ReadString('\n')
			if line != "" {
				lines <- strings.TrimSuffix(line, "\n")
			}
			if err != nil {
				return
			}
		}
	}()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for done := false; !done; {
		select {
		case line, ok := <-lines:
			if !ok {
				done = true
				break
			}
			r.line(line, time.Now())
		case now := <-tick.C:
			r.tick(now)
		case <-interrupted:
		}
	}
	err = cmd.Wait()
	r.finish()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit) && exit.ExitCode() > 0:
		return exit.ExitCode()
	default:
		fmt.Fprintf(errOut, "testprogress: go test: %v\n", err)
		return 1
	}
}

// modulePath reads the module path from the go.mod at path, so progress
// lines can name packages as ./dir; "" if there is none.
func modulePath(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}
