package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/generator"
	"sudokulab/internal/progress"
	"sudokulab/raters"
)

type generateOptions struct {
	*options
	count        int
	shape, box   string
	collection   string
	seed         int64
	symmetry     string
	minimal      bool
	givens       string
	rating       string
	maxAttempts  int
	jobs         int
	countTimeout time.Duration
	rateTimeout  time.Duration
	// batch bounds the puzzles written in one transaction, every the time
	// between two transactions (0: db.DefaultGenerationBatch and
	// db.DefaultGenerationEvery).
	batch int
	every time.Duration
	// committed, when not nil, is told the puzzles written so far after
	// each transaction (tests interrupt with it).
	committed func(puzzles int)
}

func newGenerateCmd(opts *options) *cobra.Command {
	o := &generateOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "generate",
		Short: "Make new puzzles with one solution, optionally minimal, symmetric or of a difficulty",
		Long: `generate makes --count puzzles, each with exactly one solution (proved by the
exact solver), and stores them in --collection, in order.

Each puzzle starts from a random solution grid (uniform as far as measured:
see docs/generate.md) and loses givens, one orbit of --symmetry at a time in a
random order, while it keeps one solution. Without --minimal the removal stops
at the first orbit that cannot go; with --minimal every orbit is tried, and no
orbit of givens can then be removed without a second solution (with a
symmetry, a single given may still be removable: minimality is with respect to
the symmetry's orbits). --givens A..B keeps the puzzles with A to B givens
(without --minimal, removal stops once at most B are left), and --rating
RATER:LOW..HIGH the puzzles the rater rates in range: levels of the table
rating_levels for raters that have them (human: easy, medium, hard, unfair,
extreme, beyond, or their numbers 1-6), else the rater's value. A candidate
out of range is dropped and a new one drawn; after --max-attempts candidates
for one puzzle generate fails (exit 2), keeping what it stored.

The puzzles depend only on --seed (drawn at random and printed when not
given), their index and the options, whatever the number of --jobs. Every
puzzle records its provenance in collection_puzzles.metadata (generator,
version, seed, index, options) under the label gen-SEED-INDEX, and the
generation is a row of imports with format 'generate'. Puzzles are written in
short transactions; Ctrl-C keeps those finished. A progress bar shows on
standard error when it is a terminal.`,
		Example: `  sudokulab generate --count 100 --collection fresh
  sudokulab generate --count 1000 --collection sym --symmetry rot180 --minimal --seed 42
  sudokulab generate --count 20 --collection hard --minimal --rating human:hard..beyond
  sudokulab generate --count 50 --collection mid --givens 28..30
  sudokulab generate --count 5 --collection big --shape 16x16 --symmetry rot90
  sudokulab generate --count 10 --collection wide --shape 6x6 --box 3x2 --minimal`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGenerate(cmd.Context(), cmd, o)
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.count, "count", 0, "number of puzzles to make (required)")
	f.StringVar(&o.shape, "shape", "9x9", "grid size NxN, from 4x4 to 32x32")
	f.StringVar(&o.box, "box", "", "box shape RxC (default: the usual shape for the size)")
	f.StringVar(&o.collection, "collection", "", "collection to store the puzzles in, created if needed (required)")
	f.Int64Var(&o.seed, "seed", 0, "random seed (default: drawn at random and printed)")
	f.StringVar(&o.symmetry, "symmetry", "none", "symmetry of the givens: "+strings.Join(generator.SymmetryNames(), ", "))
	f.BoolVar(&o.minimal, "minimal", false, "make minimal puzzles: no orbit of givens can be removed")
	f.StringVar(&o.givens, "givens", "", "number of givens A..B (A.., ..B, or N)")
	f.StringVar(&o.rating, "rating", "", "difficulty RATER:LOW..HIGH, such as human:hard..extreme")
	f.IntVar(&o.maxAttempts, "max-attempts", generator.DefaultMaxAttempts, "candidates tried for one puzzle before giving up")
	f.IntVar(&o.jobs, "jobs", 0, "goroutines generating in parallel (0: one per CPU)")
	f.DurationVar(&o.countTimeout, "count-timeout", generator.DefaultCountTimeout, "time limit of one count of solutions (large grids)")
	f.DurationVar(&o.rateTimeout, "rate-timeout", 0, "time limit of one rating; a candidate rated too slowly is dropped (default: the rater's own, as rate's --timeout: se 5m, the others 30s)")
	return cmd
}

// generateShape reads --shape NxN and --box RxC.
func generateShape(shape, box string) (sudokulab.Shape, error) {
	a, b, ok := strings.Cut(strings.ToLower(strings.TrimSpace(shape)), "x")
	n, err1 := strconv.Atoi(a)
	m, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n != m {
		return sudokulab.Shape{}, sudokulab.Errorf(sudokulab.EINVALID, "--shape %q: want the grid size NxN, such as 9x9", shape)
	}
	if box != "" {
		s, err := parseShape(box)
		if err != nil {
			return s, err
		}
		if s.N() != n {
			return s, sudokulab.Errorf(sudokulab.EINVALID, "--box %s gives %dx%d grids, not %s", box, s.N(), s.N(), shape)
		}
		return s, nil
	}
	s, err := sudokulab.ShapeForN(n)
	if err != nil {
		return s, sudokulab.WrapError(sudokulab.EINVALID, err, "--shape %s", shape)
	}
	return s, nil
}

func runGenerate(ctx context.Context, cmd *cobra.Command, o *generateOptions) error {
	opts, err := o.generatorOptions(cmd)
	if err != nil {
		return err
	}
	d, err := o.openWrite(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	if o.rating != "" {
		levels := func(rater string) (map[string]int, error) { return db.RatingLevels(ctx, d, rater) }
		if opts.Rating, err = generator.NewRatingFilter(ctx, raters.Default(), o.rating, levels); err != nil {
			return err
		}
		if opts.RateTimeout, err = rateTimeout(cmd, o.rateTimeout, opts.Rating.Rater.Name()); err != nil {
			return err
		}
	}
	gen, err := generator.New(opts)
	if err != nil {
		return err
	}
	prov := generator.NewProvenance("sudokulab "+generator.Format, opts, o.seed, o.count, o.rating)
	var bar *progress.Work
	st, err := generator.Store(ctx, d, gen, prov, generator.StoreOptions{Collection: o.collection, Count: o.count, Jobs: o.jobs,
		Batch: o.batch, Every: o.every, Committed: o.committed,
		Start: func() { bar = progress.NewWork(cmd.ErrOrStderr(), "generate", o.count) },
		Made:  func() { bar.Add(1, "") }})
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "generated %d puzzles into %s (seed %d): %d new, %d already stored; import %d\n",
		st.Written, o.collection, o.seed, st.Import.PuzzlesNew, st.Import.PuzzlesDuplicate, st.Import.ID)
	return st.Err
}

// generatorOptions reads the flags into the generator's options (the
// rating filter aside, which needs the database), drawing and printing
// the seed when --seed is not given.
func (o *generateOptions) generatorOptions(cmd *cobra.Command) (generator.Options, error) {
	if o.count <= 0 {
		return generator.Options{}, usageError(cmd, "generate: --count N is required, N at least 1")
	}
	if strings.TrimSpace(o.collection) == "" {
		return generator.Options{}, usageError(cmd, "generate: --collection NAME is required")
	}
	shape, err := generateShape(o.shape, o.box)
	if err != nil {
		return generator.Options{}, err
	}
	sym, err := generator.ParseSymmetry(o.symmetry)
	if err != nil {
		return generator.Options{}, fmt.Errorf("--symmetry: %w", err)
	}
	var givens generator.Range
	if o.givens != "" {
		if givens, err = generator.ParseRange(o.givens); err != nil {
			return generator.Options{}, fmt.Errorf("--givens: %w", err)
		}
	}
	if !cmd.Flags().Changed("seed") {
		o.seed = int64(rand.Uint64() >> 1)
		fmt.Fprintf(cmd.ErrOrStderr(), "seed %d\n", o.seed)
	}
	return generator.Options{Shape: shape, Seed: uint64(o.seed), Symmetry: sym, Minimal: o.minimal, Givens: givens,
		MaxAttempts: o.maxAttempts, CountTimeout: o.countTimeout, RateTimeout: o.rateTimeout}, nil
}

// rateTimeout is the time limit of one rating of a candidate: --rate-timeout
// when given, else the rater's own, as rate has it (a shorter one would drop
// the hardest candidates, biasing what is made).
func rateTimeout(cmd *cobra.Command, flag time.Duration, rater string) (time.Duration, error) {
	if cmd.Flags().Changed("rate-timeout") {
		return flag, nil
	}
	in, err := raters.Default().Lookup(rater)
	if err != nil {
		return 0, err
	}
	return in.TimeLimit(), nil
}
