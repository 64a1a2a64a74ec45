package main

import "syscall"

// cpuModel names the processor, for the report's heading: the
// machdep.cpu.brand_string sysctl ("Apple M2", say).
func cpuModel() string {
	if s, err := syscall.Sysctl("machdep.cpu.brand_string"); err == nil && s != "" {
		return s
	}
	return "unknown CPU"
}
