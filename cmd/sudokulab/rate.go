package main

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/jmoiron/sqlx"
	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/raters"
)

type rateOptions struct {
	*options
	rater      string
	where      string
	collection string
	limit      int
	jobs       int
	opts       []string
}

func newRateCmd(opts *options) *cobra.Command {
	o := &rateOptions{options: opts}
	names := strings.Join(raters.Default().Names(), ", ")
	cmd := &cobra.Command{
		Use:   "rate",
		Short: "Rate the difficulty of puzzles",
		Long: `rate rates the puzzles matching --where (a SQL predicate over the view
puzzle_catalog) and --collection with one rater or all of them, and stores one
row per puzzle and rater in the table ratings, replacing an older rating by the
same rater. Each row records the rater's name, version and options.

Raters: ` + names + `. "all" means every rater except those that
read the database (empirical), which join only when one of their options is
given. See docs/schema.md for what each rater's value, label and details hold.

--option KEY=VALUE sets a rater's option; with --rater all, name the rater:
--option backtrack.samples=16. The work is spread over --jobs goroutines; the
ratings are written in one transaction.`,
		Example: `  sudokulab rate --rater all --collection paper-puzzles
  sudokulab rate --rater human --where "givens < 25"
  sudokulab rate --rater backtrack --option samples=16 --collection sato-inoue-2010
  sudokulab rate --rater empirical --option config=exact --collection reseda-2012`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRate(cmd.Context(), cmd, o)
		},
	}
	cmd.Flags().StringVar(&o.rater, "rater", "", "rater name, or all (required)")
	cmd.Flags().StringVar(&o.where, "where", "", "SQL predicate over the view puzzle_catalog")
	cmd.Flags().StringVar(&o.collection, "collection", "", "only puzzles of this collection")
	cmd.Flags().IntVar(&o.limit, "limit", 0, "at most this many puzzles (0: all)")
	cmd.Flags().IntVar(&o.jobs, "jobs", 0, "goroutines rating in parallel (0: one per CPU)")
	cmd.Flags().StringArrayVar(&o.opts, "option", nil, "rater option KEY=VALUE (RATER.KEY=VALUE with --rater all); repeatable")
	return cmd
}

// raterOptions splits --option values by rater. A key without a rater
// prefix belongs to the only rater named by --rater.
func raterOptions(reg *raters.Registry, rater string, opts []string) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	for _, kv := range opts {
		key, value, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(key) == "" {
			return nil, sudokulab.Errorf(sudokulab.EINVALID, "--option %q: want KEY=VALUE", kv)
		}
		name := rater
		if r, k, ok := strings.Cut(key, "."); ok {
			name, key = r, k
		} else if rater == "all" {
			return nil, sudokulab.Errorf(sudokulab.EINVALID, "--option %q: with --rater all, name the rater: RATER.%s", kv, kv)
		}
		if _, err := reg.Lookup(name); err != nil {
			return nil, fmt.Errorf("--option %q: %w", kv, err)
		}
		if rater != "all" && name != rater {
			return nil, sudokulab.Errorf(sudokulab.EINVALID, "--option %q: is for rater %s, not %s", kv, name, rater)
		}
		if out[name] == nil {
			out[name] = map[string]string{}
		}
		out[name][key] = value
	}
	return out, nil
}

// makeRaters makes the raters named by --rater.
func makeRaters(ctx context.Context, x sqlx.ExtContext, reg *raters.Registry, rater string, opts []string) ([]raters.Rater, error) {
	if rater == "" {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "--rater is required: one of %s, or all", strings.Join(reg.Names(), ", "))
	}
	byRater, err := raterOptions(reg, rater, opts)
	if err != nil {
		return nil, err
	}
	names := []string{rater}
	if rater == "all" {
		names = nil
		for _, n := range reg.Names() {
			if in, _ := reg.Lookup(n); !in.NeedsDB || byRater[n] != nil {
				names = append(names, n)
			}
		}
	}
	var out []raters.Rater
	for _, n := range names {
		in, err := reg.Lookup(n)
		if err != nil {
			return nil, err
		}
		r, err := in.New(ctx, raters.Env{Options: byRater[n], DB: x})
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// rateAll rates every puzzle by every rater on jobs goroutines and hands
// each rating to write, from the calling goroutine, in no set order. It
// stops at the first error.
func rateAll(ctx context.Context, puzzles []sudokulab.Puzzle, rs []raters.Rater, jobs int, write func(sudokulab.Rating) error) error {
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	next := make(chan int)
	results := make(chan sudokulab.Rating, 64)
	var wg sync.WaitGroup
	for range min(jobs, max(len(puzzles), 1)) {
		wg.Go(func() {
			for i := range next {
				p := puzzles[i]
				for _, r := range rs {
					rating, err := r.Rate(ctx, p.Givens)
					if err != nil {
						cancel(fmt.Errorf("rate puzzle %d by %s: %w", p.ID, r.Name(), err))
						return
					}
					rating.PuzzleID = p.ID
					select {
					case results <- rating:
					case <-ctx.Done():
						return
					}
				}
			}
		})
	}
	go func() {
		defer close(next)
		for i := range puzzles {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()
	for rating := range results {
		if ctx.Err() != nil {
			continue // drain
		}
		if err := write(rating); err != nil {
			cancel(err)
		}
	}
	return context.Cause(ctx)
}

// rateSummary accumulates what rate prints for one rater.
type rateSummary struct {
	rated, valued int
	sum           float64
	labels        map[string]int
}

func runRate(ctx context.Context, cmd *cobra.Command, o *rateOptions) error {
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
	puzzles, err := db.ListPuzzles(ctx, d, puzzlePredicate(o.where, o.collection), o.limit)
	if err != nil {
		return err
	}
	summaries := map[string]*rateSummary{}
	for _, r := range rs {
		summaries[r.Name()] = &rateSummary{labels: map[string]int{}}
	}
	err = d.WithTx(ctx, func(tx *sqlx.Tx) error {
		return rateAll(ctx, puzzles, rs, o.jobs, func(r sudokulab.Rating) error {
			s := summaries[r.Rater]
			s.rated++
			if r.Value != nil {
				s.valued++
				s.sum += *r.Value
			}
			if r.Label != "" {
				s.labels[r.Label]++
			}
			return db.UpsertRating(ctx, tx, r)
		})
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "rated %d puzzles by %d raters\n", len(puzzles), len(rs))
	rows := make([][]any, 0, len(rs))
	for _, r := range rs {
		s := summaries[r.Name()]
		var mean any
		if s.valued > 0 {
			mean = s.sum / float64(s.valued)
		}
		labels := make([]string, 0, len(s.labels))
		for l, n := range s.labels {
			labels = append(labels, fmt.Sprintf("%s:%d", l, n))
		}
		slices.Sort(labels)
		rows = append(rows, []any{r.Name(), r.Version(), r.Options(), s.rated, mean, strings.Join(labels, " ")})
	}
	return writeRows(cmd.OutOrStdout(), o.format, []string{"rater", "version", "options", "puzzles", "mean_value", "labels"}, rows)
}
