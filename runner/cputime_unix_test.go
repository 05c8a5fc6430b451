//go:build unix

package runner_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) the test process has
// used, for benchmarks to report CPU per run: unlike wall time it does not
// grow when other processes share the cores.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
