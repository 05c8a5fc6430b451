// Command sudokulab is the command line of the Sudoku laboratory: it keeps
// puzzles, solver configurations, runs and trajectories in one SQLite file
// and answers questions about them with SQL.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"sudokulab"
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go onSignals(sigs, cancel, os.Stderr, os.Exit)
	err := newRootCmd().ExecuteContext(ctx)
	signal.Stop(sigs)
	cancel()
	os.Exit(exitCode(os.Stderr, err))
}

// onSignals stops the command cleanly on the first signal from sigs (it
// cancels the command's context: finished work is kept, claims handed
// back) and quits at once with exitCanceled on the second, for when the
// clean stop takes longer than the user will wait. Quitting at once costs
// what kill -9 costs: work not yet committed, and a lease that has to
// lapse; the same command run again resumes after what was committed.
func onSignals(sigs <-chan os.Signal, cancel context.CancelFunc, stderr io.Writer, exit func(int)) {
	<-sigs
	cancel()
	fmt.Fprintln(stderr, "sudokulab: stopping cleanly (finished work is kept); interrupt again to quit at once")
	<-sigs
	fmt.Fprintln(stderr, "sudokulab: interrupted again: quitting at once (work not yet committed is lost; the same command resumes)")
	exit(exitCanceled)
}

// Exit codes. They are part of the interface: scripts test them.
const (
	exitOK       = 0
	exitInternal = 1   // a bug or an environment failure
	exitInvalid  = 2   // bad input: flags, grids, files, SQL
	exitNotFound = 3   // a named thing does not exist
	exitConflict = 4   // the request contradicts what is stored
	exitNoSpace  = 5   // a disk, quota or database server is full
	exitCanceled = 130 // interrupted (Ctrl-C): cleanly, or at once on a second Ctrl-C
)

// exitCode is the one place that turns an error into a message and an exit
// status.
func exitCode(stderr io.Writer, err error) int {
	if err == nil {
		return exitOK
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "sudokulab: interrupted")
		return exitCanceled
	}
	// cobra's own complaints about commands and arguments are usage errors.
	err = unknownCommand(err)
	if msg := err.Error(); strings.HasPrefix(msg, "unknown command") || strings.HasPrefix(msg, "accepts ") ||
		strings.HasPrefix(msg, "requires ") || strings.HasPrefix(msg, "invalid argument") {
		err = sudokulab.WrapError(sudokulab.EINVALID, err, "")
	}
	fmt.Fprintln(stderr, "sudokulab: "+err.Error())
	switch sudokulab.ErrorCode(err) {
	case sudokulab.EINVALID:
		return exitInvalid
	case sudokulab.ENOTFOUND:
		return exitNotFound
	case sudokulab.ECONFLICT:
		return exitConflict
	case sudokulab.ENOSPACE:
		fmt.Fprintln(stderr, "sudokulab: out of space: free some (a pipe's temporary copy goes to $TMPDIR) and run the same command again; import, run, rate and count keep what they committed and resume after it")
		return exitNoSpace
	default:
		return exitInternal
	}
}
