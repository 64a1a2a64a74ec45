//go:build !linux && !darwin

package main

// cpuModel is not written for this system.
func cpuModel() string { return "unknown CPU" }
