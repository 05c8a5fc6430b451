package cputime_test

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"sudokulab/internal/cputime"
)

// spin computes until the clock read by now has advanced by d, and fails t
// if a minute of wall time passes first: it measures the clock against
// work done, not against the wall, so a loaded machine only makes it slow.
func spin(t *testing.T, now func() (time.Duration, bool), d time.Duration) {
	t.Helper()
	start, _ := now()
	x := uint64(1)
	for wall := time.Now().Add(time.Minute); ; {
		for range 1000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
		if c, _ := now(); c-start >= d {
			break
		}
		if time.Now().After(wall) {
			t.Fatalf("a minute of computing counted less than %v of CPU", d)
		}
	}
	runtime.KeepAlive(x)
}

// TestThreadCountsWorkNotSleep checks that the thread's clock advances
// while the thread computes, no faster than the wall clock and no faster
// than the process's clock, and stands still while it sleeps.
func TestThreadCountsWorkNotSleep(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start, ok := cputime.Thread()
	if !ok {
		t.Skip("no thread CPU clock on " + runtime.GOOS)
	}
	pstart, _ := cputime.Process()
	wall := time.Now()
	spin(t, cputime.Thread, 20*time.Millisecond)
	busy, _ := cputime.Thread()
	elapsed := time.Since(wall)
	pbusy, _ := cputime.Process()
	if used := busy - start; used > elapsed+time.Millisecond || used > pbusy-pstart+time.Millisecond {
		t.Errorf("the thread counted %v of CPU in %v of wall time, the process %v", used, elapsed, pbusy-pstart)
	}
	time.Sleep(50 * time.Millisecond)
	slept, _ := cputime.Thread()
	if slept-busy > 10*time.Millisecond {
		t.Errorf("50 ms of sleep counted %v of CPU", slept-busy)
	}
}

// TestWithBudget checks that the context ends once the process has used
// its budget of CPU, not before, and not while the process sleeps.
func TestWithBudget(t *testing.T) {
	if _, ok := cputime.Process(); !ok {
		t.Skip("no process CPU clock on " + runtime.GOOS)
	}
	type key struct{}
	parent := context.WithValue(context.Background(), key{}, "v")

	start, _ := cputime.Process()
	ctx, cancel := cputime.WithBudget(parent, 30*time.Millisecond)
	defer cancel()
	time.Sleep(100 * time.Millisecond)
	if err := ctx.Err(); err != nil {
		t.Fatalf("after 100 ms of sleep with a budget of 30 ms of CPU: %v", err)
	}
	if ctx.Value(key{}) != "v" {
		t.Error("the parent's value is lost")
	}
	x := uint64(1)
	for ctx.Err() == nil {
		x = x*6364136223846793005 + 1442695040888963407
	}
	runtime.KeepAlive(x)
	if used, _ := cputime.Process(); used-start < 30*time.Millisecond-time.Millisecond || !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Errorf("ended after %v of CPU with %v; want 30 ms and the deadline", used-start, ctx.Err())
	}
	select {
	case <-ctx.Done():
	default:
		t.Error("Err is set but Done is open")
	}

	pctx, pcancel := context.WithCancel(parent)
	ctx, cancel = cputime.WithBudget(pctx, time.Hour)
	defer cancel()
	pcancel()
	<-ctx.Done()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("parent cancelled: %v, want context.Canceled", ctx.Err())
	}

	ctx, cancel = cputime.WithBudget(parent, time.Hour)
	cancel()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("after cancel: %v, want context.Canceled", ctx.Err())
	}
	cancel()
}
