//go:build unix

package db

import (
	"errors"
	"os"
	"syscall"
)

// flockWorks is whether this system has flock(2).
const flockWorks = true

// flockShared takes a shared lock on f, waiting for an exclusive holder
// (a job's probe, which holds it for an instant).
func flockShared(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// flockTryExclusive takes an exclusive lock on f if nobody holds a lock.
func flockTryExclusive(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}

// flockUnlock releases the lock f holds.
func flockUnlock(f *os.File) { syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
