//go:build !unix

package db

import (
	"errors"
	"os"
)

// flockWorks is whether this system has flock(2): not here, so the
// writer signal is off and the Pacer keeps to its schedule.
const flockWorks = false

func flockShared(*os.File) error        { return errors.New("no flock") }
func flockTryExclusive(f *os.File) bool { return true }
func flockUnlock(*os.File)              {}
