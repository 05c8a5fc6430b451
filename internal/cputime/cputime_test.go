package cputime_test

import (
	"runtime"
	"testing"
	"time"

	"sudokulab/internal/cputime"
)

// TestThreadCountsWorkNotSleep checks that the clock advances while the
// thread computes and stands still while it sleeps.
func TestThreadCountsWorkNotSleep(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start, ok := cputime.Thread()
	if !ok {
		t.Skip("no thread CPU clock on " + runtime.GOOS)
	}
	x := uint64(1)
	for deadline := time.Now().Add(30 * time.Millisecond); time.Now().Before(deadline); {
		for range 1000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	busy, _ := cputime.Thread()
	if busy-start < 5*time.Millisecond {
		t.Errorf("30 ms of computing counted %v of CPU", busy-start)
	}
	time.Sleep(50 * time.Millisecond)
	slept, _ := cputime.Thread()
	if slept-busy > 20*time.Millisecond {
		t.Errorf("50 ms of sleep counted %v of CPU", slept-busy)
	}
	_ = x
}
