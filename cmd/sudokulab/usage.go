package main

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"sudokulab"
	"sudokulab/internal/suggest"
)

// Usage errors (a mistyped flag or command, a missing or extra argument)
// are one line on standard error, naming the mistake, the likely fix when
// there is one ("did you mean --collection?") and the help to read, never
// the 30 lines of the command's usage; they exit 2.

// usageError returns the EINVALID error of a mistake in how cmd was
// called: msg, then where to read how to call it.
func usageError(cmd *cobra.Command, msg string) error {
	return sudokulab.Errorf(sudokulab.EINVALID, "%s; see %s --help", msg, cmd.CommandPath())
}

// flagError is the root's flag error function: the error of a flag that
// does not parse, with the flags of cmd nearest to a mistyped one.
func flagError(cmd *cobra.Command, err error) error {
	var notExist *pflag.NotExistError
	if errors.As(err, &notExist) {
		name := notExist.GetSpecifiedName()
		if strings.ContainsAny(name, " \n") {
			// An argument starting with "--", such as a SQL comment.
			return usageError(cmd, fmt.Sprintf("%s: an argument starting with - is read as a flag; put -- before it (sudokulab sql -- \"-- comment ...\")",
				strings.SplitN(err.Error(), "\n", 2)[0]))
		}
		if short := notExist.GetSpecifiedShortnames(); short != "" && len(name) == 1 {
			return usageError(cmd, err.Error()+suggest.DidYouMean(flagSuggestions(cmd, name, true)))
		}
		return usageError(cmd, err.Error()+suggest.DidYouMean(flagSuggestions(cmd, name, false)))
	}
	return usageError(cmd, err.Error())
}

// flagSuggestions returns the flags of cmd (its own and those it
// inherits, hidden ones left out) whose name is within an edit distance of
// 2 of name, or starts with it, written as on the command line; short
// compares the one-letter shorthands instead, by case.
func flagSuggestions(cmd *cobra.Command, name string, short bool) []string {
	var out []string
	seen := map[string]bool{}
	visit := func(f *pflag.Flag) {
		if f.Hidden || seen[f.Name] {
			return
		}
		seen[f.Name] = true
		switch {
		case short:
			if f.Shorthand != "" && strings.EqualFold(f.Shorthand, name) {
				out = append(out, "-"+f.Shorthand+" (--"+f.Name+")")
			}
		case suggest.Distance(strings.ToLower(name), f.Name) <= 2 || (len(name) >= 2 && strings.HasPrefix(f.Name, strings.ToLower(name))):
			out = append(out, "--"+f.Name)
		}
	}
	cmd.LocalFlags().VisitAll(visit)
	cmd.InheritedFlags().VisitAll(visit)
	slices.Sort(out)
	return out
}

// subcommandArgs is the Args of a command that only holds subcommands: an
// argument is a mistyped subcommand, named with the nearest ones.
func subcommandArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	return usageError(cmd, fmt.Sprintf("unknown command %q for %q%s", args[0], cmd.CommandPath(),
		suggest.DidYouMean(commandSuggestions(cmd, args[0]))))
}

// commandSuggestions returns the subcommands of cmd near name.
func commandSuggestions(cmd *cobra.Command, name string) []string {
	return suggest.Names(name, subcommandNames(cmd))
}

// subcommandNames lists the subcommands of cmd a user may call.
func subcommandNames(cmd *cobra.Command) []string {
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	return names
}

// argsWithHelp wraps the Args check of cmd and of every command below it
// so that a wrong number of arguments is a usage error naming the help
// to read.
func argsWithHelp(cmd *cobra.Command) {
	if check := cmd.Args; check != nil {
		cmd.Args = func(c *cobra.Command, args []string) error {
			err := check(c, args)
			if err == nil || strings.Contains(err.Error(), "--help") {
				return err
			}
			if sudokulab.ErrorCode(err) != sudokulab.EINTERNAL && sudokulab.ErrorCode(err) != sudokulab.EINVALID {
				return err
			}
			return usageError(c, err.Error())
		}
	}
	for _, c := range cmd.Commands() {
		argsWithHelp(c)
	}
}

// unknownCommand rewrites cobra's error for an unknown command of the
// root ("unknown command \"x\" for \"sudokulab\"\n\nDid you mean
// this?\n\ty\n") as one usage line, or returns err unchanged.
func unknownCommand(err error) error {
	msg := err.Error()
	if !strings.HasPrefix(msg, "unknown command ") || strings.Contains(msg, "--help") {
		return err
	}
	head, tail, _ := strings.Cut(msg, "\n")
	var suggestions []string
	for _, l := range strings.Split(tail, "\n") {
		if strings.HasPrefix(l, "\t") {
			suggestions = append(suggestions, strings.TrimSpace(l))
		}
	}
	return sudokulab.Errorf(sudokulab.EINVALID, "%s%s; see sudokulab --help", head, suggest.DidYouMean(suggestions))
}

// outputFormats are the values of --output-format.
var outputFormats = []string{"table", "csv", "json"}

// checkOutputFlags refuses a --output-format other than table, csv or
// json, and the global --format of old (now --output-format) on a command
// whose --format, if any, is a file format.
func checkOutputFlags(cmd *cobra.Command, o *options) error {
	if !slices.Contains(outputFormats, o.format) {
		return usageError(cmd, fmt.Sprintf("--output-format %q: want table, csv or json", o.format))
	}
	if f := cmd.Flags().Lookup("format"); f != nil && f.Changed && f.Hidden {
		// The root's hidden --format: cmd has no --format of its own.
		hint := ""
		if slices.Contains(outputFormats, f.Value.String()) {
			hint = fmt.Sprintf(": sudokulab -O %s %s", f.Value.String(), strings.TrimPrefix(cmd.CommandPath(), "sudokulab "))
		}
		return usageError(cmd, fmt.Sprintf("--format %q: --format names a file format, and %s reads or writes no puzzle file; for table, csv or json output use --output-format (-O)%s",
			f.Value.String(), cmd.CommandPath(), hint))
	}
	return nil
}

// jobsPerCore bounds --jobs: every job is CPU-bound, so more goroutines
// than this many per core add no speed, only memory (each holds a solver's
// state and buffers: run --jobs 100000 took 552 MB for 80 runs, generate
// 457 MB).
const jobsPerCore = 4

// capJobs lowers a --jobs above jobsPerCore times the cores to that bound,
// with a note on stderr.
func capJobs(cmd *cobra.Command) error {
	f := cmd.Flags().Lookup("jobs")
	if f == nil || !f.Changed {
		return nil
	}
	n, err := strconv.Atoi(f.Value.String())
	limit := jobsPerCore * runtime.NumCPU()
	if err != nil || n <= limit {
		return nil
	}
	if err := f.Value.Set(strconv.Itoa(limit)); err != nil {
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "note: --jobs %d capped at %d (%d per core on %d cores): more would take memory and add no speed\n",
		n, limit, jobsPerCore, runtime.NumCPU())
	return nil
}
