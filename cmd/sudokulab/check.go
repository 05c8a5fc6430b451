package main

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/importers"
	"sudokulab/importers/pipeline"
)

type checkOptions struct {
	*options
	decodeFlags
	fileFormat   string
	jobs         int
	countTimeout time.Duration
}

func newCheckCmd(opts *options) *cobra.Command {
	o := &checkOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "check FILE...",
		Short: "Check the puzzles of files without a database: rules, solution count, givens",
		Long: `check reads puzzle files of any format import reads (detected, or named by
--format) and prints one line per puzzle, in the order of the files: its file
and line, label, size and givens, its solution count (0, 1, or 2 meaning two
or more; "undetermined" when counting takes longer than --count-timeout),
whether it is valid (it breaks no rule and has exactly one solution) and if
not, the problem. An entry that does not read is a line with its problem.
The puzzles are checked on every core (--jobs) and the lines come as they
are done, in order. No database is opened or created.`,
		Example: `  sudokulab check top1465.txt
  sudokulab -O csv check *.sdk > checked.csv
  sudokulab check --format line hardest.txt --count-timeout 1m
  sudokulab check table.csv --puzzle-column grid`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheck(cmd.Context(), cmd, o, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.fileFormat, "format", "", "the files' format (default: detected; see sudokulab formats)")
	o.decodeFlags.register(f, "")
	f.IntVar(&o.jobs, "jobs", runtime.NumCPU(), "goroutines checking puzzles")
	f.DurationVar(&o.countTimeout, "count-timeout", pipeline.DefaultCountTimeout,
		"time to count one puzzle's solutions before its count is undetermined (0: the default, negative: no limit)")
	return cmd
}

// fileReaderOf returns the reader of the files of rate or check FILE...,
// checking the format and the decoding flags.
func fileReaderOf(format string, d *decodeFlags) (*importers.FileReader, error) {
	o, err := d.options()
	if err != nil {
		return nil, err
	}
	fr := &importers.FileReader{Format: format, Decode: o, Registry: importers.Default()}
	if format != "" {
		if _, err := fr.Registry.Lookup(format); err != nil {
			return nil, err
		}
	}
	return fr, nil
}

// checkPuzzle checks one entry as pipeline.Check does, naming the flag
// that bounds an undetermined count.
func checkPuzzle(ctx context.Context, e fileEntry, timeout time.Duration) (pipeline.Checked, error) {
	c, err := pipeline.Check(ctx, e, timeout)
	if c.Solutions == sudokulab.CountUndetermined {
		c.Problem += " (--count-timeout)"
	}
	return c, err
}

// entryLabel is what the first columns of rate and check FILE... say of
// an entry.
func entryRow(e fileEntry) []any {
	var size, givens any
	if e.Err == nil {
		size, givens = e.Record.Grid.N(), e.Record.Grid.Givens()
	}
	return []any{e.File, e.Record.Line, e.Record.Label, size, givens}
}

func runCheck(ctx context.Context, cmd *cobra.Command, o *checkOptions, files []string) error {
	if err := checkJobs(o.jobs); err != nil {
		return err
	}
	fr, err := fileReaderOf(o.fileFormat, &o.decodeFlags)
	if err != nil {
		return err
	}
	out, err := newRowStream(cmd.OutOrStdout(), o.format,
		[]string{"file", "line", "label", "size", "givens", "solutions", "valid", "problem"}, []int{longest(files)})
	if err != nil {
		return err
	}
	start := time.Now()
	var n, valid int
	err = inOrder(ctx, fr, files, o.jobs, func(ctx context.Context, e fileEntry) (pipeline.Checked, error) {
		return checkPuzzle(ctx, e, o.countTimeout)
	}, func(e fileEntry, c pipeline.Checked) error {
		n++
		if c.Valid {
			valid++
		}
		return out.Write(append(entryRow(e), c.Solutions, c.Valid, c.Problem))
	})
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "checked %d puzzles of %d files in %v: %d valid, %d not\n",
		n, len(files), time.Since(start).Round(time.Millisecond), valid, n-valid)
	return nil
}
