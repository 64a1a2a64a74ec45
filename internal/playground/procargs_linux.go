package playground

import (
	"bytes"
	"fmt"
	"os"
)

// processArgs returns process pid's command line, from /proc/PID/cmdline
// (its arguments, each ended by a NUL byte).
func processArgs(pid int) ([]string, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return nil, err
	}
	var args []string
	for _, a := range bytes.Split(bytes.TrimRight(b, "\x00"), []byte{0}) {
		args = append(args, string(a))
	}
	return args, nil
}
