package playground

import (
	"bytes"
	byteorder "encoding/binary"
	"errors"

	"golang.org/x/sys/unix"
)

// processArgs returns process pid's command line, from the kern.procargs2
// sysctl (what ps -o command reads on macOS): the argument count as a
// 32-bit integer, the executable's path, NUL padding, then the arguments,
// each ended by a NUL byte, then the environment.
func processArgs(pid int) ([]string, error) {
	b, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		return nil, err
	}
	if len(b) < 4 {
		return nil, errors.New("kern.procargs2: short answer")
	}
	argc := int(byteorder.NativeEndian.Uint32(b[:4]))
	b = b[4:]
	// Skip the executable's path and the padding after it.
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[i:]
	}
	b = bytes.TrimLeft(b, "\x00")
	args := make([]string, 0, argc)
	for len(args) < argc && len(b) > 0 {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			i = len(b)
		}
		args = append(args, string(b[:i]))
		b = b[min(i+1, len(b)):]
	}
	return args, nil
}
