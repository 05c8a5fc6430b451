//go:build linux

package cputime

import (
	"time"

	"golang.org/x/sys/unix"
)

func thread() (time.Duration, bool) { return clock(unix.CLOCK_THREAD_CPUTIME_ID) }

func process() (time.Duration, bool) { return clock(unix.CLOCK_PROCESS_CPUTIME_ID) }

func clock(id int32) (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(id, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
