package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/importers/pipeline"
	"sudokulab/internal/progress"
	"sudokulab/raters"
	"sudokulab/raters/ratepool"
)

type rateOptions struct {
	*options
	// fileFormat, decodeFlags and countTimeout are for rate FILE...
	fileFormat   string
	decodeFlags  decodeFlags
	countTimeout time.Duration
	rater        string
	where        string
	collection   string
	limit        int
	jobs         int
	opts         []string
	force        bool
	// timeout bounds each rating (one puzzle by one rater); 0: none.
	timeout time.Duration
	// batch bounds the puzzles whose ratings are written in one
	// transaction, every the time between two transactions (0: the
	// defaults ratepool.DefaultBatch and DefaultEvery; tests make them
	// small).
	batch int
	every time.Duration
	// committed, when not nil, is told the number of ratings written so
	// far after each transaction.
	committed func(ratings int)
}

// limits returns the time limit of each rater of rs: --timeout for all of
// them when given (0: none), else each rater's own default
// (raters.Info.TimeLimit).
func (o *rateOptions) limits(cmd *cobra.Command, reg *raters.Registry, rs []raters.Rater) (ratepool.Limits, error) {
	return ratepool.TimeLimits(reg, rs, o.timeout, cmd.Flags().Changed("timeout"))
}

func newRateCmd(opts *options) *cobra.Command {
	o := &rateOptions{options: opts}
	reg := raters.Default()
	names := strings.Join(reg.Names(), ", ")
	cmd := &cobra.Command{
		Use:   "rate [FILE...]",
		Short: "Rate the difficulty of puzzles, stored or in files",
		Long: `rate rates the puzzles matching --where (a SQL predicate over the view
puzzle_catalog: one row per puzzle and collection, see docs/schema.md) and
--collection with one rater or all of them, and stores one row per puzzle and
rater in the table ratings, replacing an older rating by the same rater. Each
row records the rater's name, version and options. A progress bar shows on
standard error when it is a terminal.

rate FILE... rates the puzzles of files instead, without a database (none is
opened or created): the files are read as import reads them (format
detected, or named by --format), and one line per puzzle comes out as soon
as it and those before it are rated, in the order of the files, with its
solution count (0, 1, 2 meaning two or more, or undetermined after
--count-timeout) and each rater's value and label. The raters that read
the database (empirical) cannot rate files.

Raters: ` + names + `. "all" means every rater except those that
read the database (empirical), which join only when one of their options is
given. See docs/schema.md for what each rater's value, label and details hold.

--option KEY=VALUE sets a rater's option; with --rater all, name the rater:
--option backtrack.samples=16. The work is spread over --jobs goroutines; the
ratings are written in short transactions as they come (200 puzzles at a
time, or every 250 ms), so an interrupted rate keeps what it wrote. A puzzle
that already has a rating by the rater with the same version and options is
skipped (said on standard error), so rate again resumes; --force rates it
again.

--timeout bounds the time one rater spends on one puzzle, for every rater
(0: no limit). Without it each rater has its own limit, long enough for the
hardest puzzles it is meant for (se's take 5 to 40 s of CPU each, more on a
loaded machine):

  ` + reg.TimeLimitsText() + `

A rating cut short by it is not stored: rate counts it in the column
cut_short and names the puzzles on standard error. Rate again with a longer
--timeout (or 0) to finish them: having no rating, they are not skipped.`,
		Example: `  sudokulab rate --rater all --collection paper-puzzles
  sudokulab rate --rater human top1465.txt
  sudokulab -O csv rate --rater all --format line hardest.txt > ratings.csv
  sudokulab rate --rater human --where "givens < 25"
  sudokulab rate --rater backtrack --option samples=16 --collection sato-inoue-2010
  sudokulab rate --rater empirical --option config=exact --collection reseda-2012
  sudokulab rate --rater all --where "size = 25" --timeout 10m`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return runRateFiles(cmd.Context(), cmd, o, args)
			}
			for _, name := range append([]string{"format", "count-timeout"}, decodeFlagNames...) {
				if !cmd.Flags().Changed(name) {
					continue
				}
				msg := fmt.Sprintf("--%s is for rate FILE...", name)
				if name == "format" {
					msg += " (the output format is --output-format, -O)"
				}
				return usageError(cmd, msg)
			}
			return runRate(cmd.Context(), cmd, o)
		},
	}
	cmd.Flags().StringVar(&o.rater, "rater", "", "rater name, or all (required)")
	cmd.Flags().StringVar(&o.where, "where", "", whereHelp)
	cmd.Flags().StringVar(&o.fileFormat, "format", "", "rate FILE...: the files' format (default: detected; see sudokulab formats)")
	o.decodeFlags.register(cmd.Flags(), "rate FILE...: ")
	cmd.Flags().DurationVar(&o.countTimeout, "count-timeout", pipeline.DefaultCountTimeout,
		"rate FILE...: time to count one puzzle's solutions before its count is undetermined")
	cmd.Flags().StringVar(&o.collection, "collection", "", "only puzzles of this collection")
	cmd.Flags().IntVar(&o.limit, "limit", 0, "at most this many puzzles (0: all)")
	cmd.Flags().IntVar(&o.jobs, "jobs", 0, "goroutines rating in parallel (0: one per CPU)")
	cmd.Flags().StringArrayVar(&o.opts, "option", nil, "rater option KEY=VALUE (RATER.KEY=VALUE with --rater all); repeatable")
	cmd.Flags().BoolVar(&o.force, "force", false, "rate again puzzles already rated by the same rater version and options")
	cmd.Flags().DurationVar(&o.timeout, "timeout", 0, "time limit of one rater on one puzzle; a rating cut short is not stored (0: no limit; default: each rater's own, "+reg.TimeLimitsText()+")")
	return cmd
}

// makeRaters makes the raters named by --rater.
func makeRaters(ctx context.Context, d *db.DB, reg *raters.Registry, rater string, opts []string) ([]raters.Rater, error) {
	if rater == "" {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "--rater is required: one of %s, or all", strings.Join(reg.Names(), ", "))
	}
	byRater, err := reg.ParseOptions(rater, opts)
	if err != nil {
		return nil, err
	}
	if d == nil {
		return reg.Make(ctx, rater, byRater, nil) // not a nil *db.DB in the interface
	}
	return reg.Make(ctx, rater, byRater, d)
}

func runRate(ctx context.Context, cmd *cobra.Command, o *rateOptions) error {
	if err := ratepool.CheckTimeout(o.timeout); err != nil {
		return err
	}
	d, err := o.open(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	reg := raters.Default()
	rs, err := makeRaters(ctx, d, reg, o.rater, o.opts)
	if err != nil {
		return err
	}
	limits, err := o.limits(cmd, reg, rs)
	if err != nil {
		return err
	}
	where, err := db.SelectionPredicate(ctx, d, o.where, o.collection, nil)
	if err != nil {
		return err
	}
	puzzles, err := db.ListPuzzles(ctx, d, where, o.limit)
	if err != nil {
		return err
	}
	prog := progress.NewRatings(cmd.ErrOrStderr())
	res, err := ratepool.Rate(ctx, d, puzzles, rs, ratepool.Options{Workers: o.jobs, Limits: limits, Force: o.force,
		Batch: o.batch, Every: o.every, Committed: o.committed, Progress: prog})
	prog.Finish()
	if err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "rate: %d ratings written before the error; rate again to resume\n", res.Written)
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "rated %d puzzles by %d raters; skipped %d ratings already stored by the same rater version and options (--force rates them again)\n",
		res.Puzzles, len(rs), res.Skipped)
	for _, r := range rs {
		s := res.ByRater[r.Name()]
		if s.CutShort == 0 {
			continue
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: %d ratings cut short by --timeout %s, not stored (puzzles %s); rate again with a longer --timeout, or --timeout 0 for none, to finish them\n",
			r.Name(), s.CutShort, limits[r.Name()], s.CutShortPuzzles())
	}
	t := res.Table(rs)
	return writeRows(cmd.OutOrStdout(), o.format, t.Columns, t.Rows)
}
