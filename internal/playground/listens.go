package playground

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// listensOn reports whether process pid itself holds a socket listening on
// the TCP port: the inodes of its open sockets (the socket:[N] links in
// /proc/PID/fd) against the listening sockets of its network namespace
// (/proc/PID/net/tcp and tcp6). A healthy answer on a child's port proves
// nothing on its own: another etcd that took the port first answers just as
// well.
func listensOn(pid, port int) (bool, error) {
	sockets := map[string]bool{}
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return false, err
	}
	for _, fd := range fds {
		link, err := os.Readlink(filepath.Join(fmt.Sprintf("/proc/%d/fd", pid), fd.Name()))
		if err == nil && strings.HasPrefix(link, "socket:[") {
			sockets[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] = true
		}
	}
	for _, table := range []string{"tcp", "tcp6"} {
		f, err := os.Open(fmt.Sprintf("/proc/%d/net/%s", pid, table))
		if err != nil {
			continue // no IPv6, say
		}
		found := listeningInode(bufio.NewScanner(f), port, sockets)
		f.Close()
		if found {
			return true, nil
		}
	}
	return false, nil
}

// listeningInode scans a /proc/net/tcp table for a socket in state LISTEN
// (0A) on port whose inode is one of sockets.
func listeningInode(lines *bufio.Scanner, port int, sockets map[string]bool) bool {
	lines.Scan() // the header
	for lines.Scan() {
		// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
		fields := strings.Fields(lines.Text())
		if len(fields) < 10 || fields[3] != "0A" {
			continue
		}
		_, hexPort, ok := strings.Cut(fields[1], ":")
		if !ok {
			continue
		}
		if p, err := strconv.ParseInt(hexPort, 16, 32); err == nil && int(p) == port && sockets[fields[9]] {
			return true
		}
	}
	return false
}
