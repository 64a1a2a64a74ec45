package playground

import (
	"fmt"
	"net"
)

// pickPorts is freePorts; a test replaces it to hand out a taken port.
var pickPorts = freePorts

// freePorts asks the kernel for n distinct free loopback ports. The listeners
// are closed before the ports are used, so another process could take one in
// between; Start then tries again with new ports (up to three attempts in all)
// when a child fails to bind.
func freePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	var listeners []net.Listener
	defer func() {
		for _, l := range listeners {
			l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("finding a free loopback port: %w", err)
		}
		listeners = append(listeners, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
