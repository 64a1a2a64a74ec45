package main

import (
	"fmt"
	"regexp"
	"strings"
)

// What a failing test prints is shown a few dozen lines at a time, so the
// lines that say the least are condensed first.
//
// Log lines: a wrong answer that loops (a listener offering its handler nil
// for ever) logs the same error thousands of times, and the diff that says
// what went wrong comes after them. A log line that repeats an earlier one,
// timestamp aside, is left out, and one line says how many were.
//
// Goroutine dumps: a learner's concurrent code that is not done yet rarely
// fails with a diff. It deadlocks (testing/synctest panics: "all goroutines
// in bubble are blocked") or hangs until go test's timeout panics, and
// either way go test prints a goroutine dump of a few hundred lines, almost
// all of it the testing package's. So a check condenses a dump to what the
// learner can act on: the panic's message, and for each goroutine that
// stands in the stage's own code, what it waits for and where ("chan send
// (durable): (*ProcessorListener).Add at 05-processor/listener.go:182"). The
// whole dump is one go test command away; the check prints that command.

var (
	goroutineHeader = regexp.MustCompile(`^goroutine \d+ \[([^\]]*)\]:$`)
	callArgs        = regexp.MustCompile(`\([^()]*\)$`)
	framePosition   = regexp.MustCompile(`^\s+(\S+\.go:\d+)`)
	// klogHeader is the start of a klog line: severity, date, time, thread.
	klogHeader = regexp.MustCompile(`^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d{6}\s+\d+ `)
	// stateNoise is what a goroutine's state says beyond the wait itself.
	stateNoise = regexp.MustCompile(`, (synctest bubble \d+|\d+ minutes)`)
)

// condenseLogs returns lines without the log lines that repeat an earlier
// one (timestamps aside), with a note where the first was left out.
func condenseLogs(lines []string, m messages) []string {
	seen := map[string]bool{}
	var out []string
	note, dropped := -1, 0
	for _, l := range lines {
		if !klogHeader.MatchString(l) {
			out = append(out, l)
			continue
		}
		key := klogHeader.ReplaceAllString(l, "")
		if !seen[key] {
			seen[key] = true
			out = append(out, l)
			continue
		}
		if dropped == 0 {
			note = len(out)
			out = append(out, "")
		}
		dropped++
	}
	if dropped > 0 {
		out[note] = fmt.Sprintf(m.repeatedLogs, dropped)
	}
	return out
}

// condensePanic returns lines with a goroutine dump (from a line starting
// "panic: " on) replaced by the panic's message and the goroutines that
// stand in stage's non-test code; lines without a panic are returned as
// they are.
func condensePanic(lines []string, stage string) []string {
	at := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "panic: ") {
			at = i
			break
		}
	}
	if at < 0 {
		return lines
	}
	out := append([]string(nil), lines[:at]...)
	// The message runs to the first empty line (a timeout's lists the
	// tests still running).
	i := at
	for ; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
		out = append(out, lines[i])
	}
	var where []string
	for ; i < len(lines); i++ {
		m := goroutineHeader.FindStringSubmatch(strings.TrimSpace(lines[i]))
		if m == nil {
			continue
		}
		// The goroutine's frames, innermost first: a call, then its file.
		for j := i + 1; j+1 < len(lines) && strings.TrimSpace(lines[j]) != ""; j += 2 {
			pos := framePosition.FindStringSubmatch(lines[j+1])
			if pos == nil {
				break
			}
			file, ok := inStage(pos[1], stage)
			if !ok {
				continue
			}
			call := callArgs.ReplaceAllString(strings.TrimSpace(lines[j]), "")
			// "informer-from-scratch/05-processor.(*ProcessorListener).Add":
			// the file already names the package.
			call = call[strings.LastIndex(call, "/")+1:]
			call = call[strings.Index(call, ".")+1:]
			where = append(where, "  "+stateNoise.ReplaceAllString(m[1], "")+": "+call+" at "+file)
			break
		}
	}
	if len(where) > 0 {
		out = append(out, "goroutines in "+stage+"'s code (the full dump: the go test command below):")
		out = append(out, dedupe(where)...)
	} else {
		out = append(out, "(no goroutine stands in "+stage+"'s code; the full dump: the go test command below)")
	}
	return out
}

// panicPart is lines from a panic's first line on, or nil.
func panicPart(lines []string) []string {
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimPrefix(l, "    "), "panic: ") {
			return lines[i:]
		}
	}
	return nil
}

// inStage reports whether a frame's file is one of stage's non-test files,
// and returns it relative to the repository's root.
func inStage(path, stage string) (string, bool) {
	path = strings.ReplaceAll(path, `\`, "/")
	i := strings.LastIndex(path, "/"+stage+"/")
	if i < 0 || strings.HasSuffix(strings.SplitN(path, ":", 2)[0], "_test.go") {
		return "", false
	}
	return path[i+1:], true
}

// dedupe drops repeated lines (a hundred goroutines waiting at one place
// are one line), keeping the first's place.
func dedupe(lines []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range lines {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}
