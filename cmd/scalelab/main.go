// Command scalelab grows a copy of lab.db.example into a lab of the size
// issue 33 measures the web pages on: a million puzzles, a million runs
// and ten million trajectory points. scripts/scale-lab.sh runs it:
//
//	go run ./cmd/scalelab -db /work/scale/lab.db [-seed 1] LIST...
//
// Every puzzle is real and valid. The LIST files (one 81-character
// puzzle a line, '#' comments, as tdoku's lists) give the base puzzles;
// each is solved by the exact solver, given its symmetry form and rated
// by the human and givens raters, stored in a collection named after
// its file, and then transformed again and again (digits relabelled,
// bands, stacks, rows and columns permuted, transposed: symmetry.Random)
// into new puzzles with their solutions, which share the base's symmetry
// form and ratings (the techniques do not see the transformation). The
// transformed puzzles fill collections by round (scale-round-1 ...),
// the last round's stay in none, and every hundredth puzzle is also in
// scale-sample.
//
// The runs go through the work queue as workers record them: each
// experiment's plan is enqueued (db.Enqueue), claimed (db.ClaimWork) and
// completed (db.CompleteWork) in big transactions, by hosts node1 to
// node3, with outcomes drawn from a model (each configuration's skill
// against the puzzle's human level; solved runs end at cost 0 with the
// solution as final grid, the others at a cost above 0 with cells of the
// solution swapped, never a given), and a trajectory of 5 to 15 points each. The first
// experiment keeps some work pending and running, as one under way.
//
// The same seed and lists give the same lab. The target must not exist.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/raters"
	"sudokulab/solvers/exact"
	"sudokulab/symmetry"
)

func main() {
	var o options
	flag.StringVar(&o.db, "db", "", "the lab to build (a copy of -from; must not exist)")
	flag.StringVar(&o.from, "from", "lab.db.example", "the lab to start from")
	flag.Uint64Var(&o.seed, "seed", 1, "seed of every random choice")
	flag.IntVar(&o.puzzles, "puzzles", 1000000, "puzzles in the lab at the end")
	flag.IntVar(&o.runs, "runs", 1000000, "runs to record")
	flag.IntVar(&o.rated, "rated", 60000, "base puzzles to rate with the human rater (the rest are rated by givens only)")
	flag.Parse()
	if o.db == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: scalelab -db NEW.db [-from lab.db.example] [-seed N] LIST...")
		os.Exit(2)
	}
	o.lists = flag.Args()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := build(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "scalelab:", err)
		os.Exit(1)
	}
}

type options struct {
	db, from             string
	seed                 uint64
	puzzles, runs, rated int
	lists                []string
}

// base is a puzzle of a list with what every transformation of it shares.
type base struct {
	grid, solution sudokulab.Grid
	form           string
	file           string
	line           int
	human          *sudokulab.Rating
}

// stored is a puzzle of the lab the runs draw from: its id, givens,
// solution and human level (0 when not rated).
type stored struct {
	id               int64
	givens, solution sudokulab.Grid
	level            int
}

func build(ctx context.Context, o options) error {
	start := time.Now()
	if _, err := os.Stat(o.db); err == nil {
		return fmt.Errorf("%s exists: scalelab builds a new lab", o.db)
	}
	src, err := os.ReadFile(o.from)
	if err != nil {
		return err
	}
	if err := os.WriteFile(o.db, src, 0o644); err != nil {
		return err
	}
	d, err := db.Open(ctx, o.db)
	if err != nil {
		return err
	}
	defer d.Close()
	rng := rand.New(rand.NewPCG(o.seed, 33))
	bases, err := readBases(ctx, o)
	if err != nil {
		return err
	}
	fmt.Printf("%d base puzzles solved and rated in %s\n", len(bases), time.Since(start).Round(time.Second))
	puzzles, err := addPuzzles(ctx, d, o, bases, rng)
	if err != nil {
		return err
	}
	fmt.Printf("%d puzzles stored at %s\n", len(puzzles), time.Since(start).Round(time.Second))
	if err := addRuns(ctx, d, o, puzzles, rng); err != nil {
		return err
	}
	fmt.Printf("runs recorded at %s\n", time.Since(start).Round(time.Second))
	return nil
}

// readBases reads, solves and rates the base puzzles, the first o.rated
// by the human rater on two goroutines.
func readBases(ctx context.Context, o options) ([]base, error) {
	var out []base
	for _, name := range o.lists {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		line := 0
		for sc.Scan() {
			line++
			l := strings.TrimSpace(sc.Text())
			if l == "" || l[0] == '#' {
				continue
			}
			g, err := sudokulab.Parse(strings.Fields(l)[0])
			if err != nil {
				f.Close()
				return nil, fmt.Errorf("%s:%d: %w", name, line, err)
			}
			out = append(out, base{grid: g, file: strings.TrimSuffix(filepath.Base(name), filepath.Ext(name)), line: line})
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	var canon symmetry.Canonicalizer
	for i := range out {
		b := &out[i]
		res, err := exact.Count(ctx, b.grid, 2)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", b.file, b.line, err)
		}
		if res.Count != 1 {
			return nil, fmt.Errorf("%s:%d: %d solutions, want 1", b.file, b.line, res.Count)
		}
		b.solution = res.Solution
		if b.form, err = canon.Form(b.grid); err != nil {
			return nil, err
		}
	}
	// The human rater: spread over two goroutines, each rating every
	// other base, so the result does not depend on their timing.
	n := min(o.rated, len(out))
	errs := make(chan error, 2)
	for w := range 2 {
		go func() {
			for i := w; i < n; i += 2 {
				rctx, cancel := context.WithTimeout(ctx, raters.HumanInfo().TimeLimit())
				r, err := raters.Human{}.Rate(rctx, out[i].grid)
				cancel()
				if err != nil {
					errs <- fmt.Errorf("rate %s:%d: %w", out[i].file, out[i].line, err)
					return
				}
				out[i].human = &r
			}
			errs <- nil
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			return nil, err
		}
	}
	return out, nil
}

// levels are the human rater's labels by level.
var levels = map[string]int{"easy": 1, "medium": 2, "hard": 3, "unfair": 4, "extreme": 5, "beyond": 6}

// addPuzzles stores the bases and their transformations until the lab
// holds o.puzzles puzzles, in transactions of 20,000.
func addPuzzles(ctx context.Context, d *db.DB, o options, bases []base, rng *rand.Rand) ([]stored, error) {
	size, err := db.CountLab(ctx, d)
	if err != nil {
		return nil, err
	}
	have := int(size.Puzzles)
	w := &memberWriter{colls: map[string]int64{}, positions: map[int64]int{}}
	var out []stored
	i := 0
	for have < o.puzzles {
		err := d.WithTx(ctx, func(tx *sqlx.Tx) error {
			for k := 0; k < 20000 && have < o.puzzles; k++ {
				round, b := i/len(bases), &bases[i%len(bases)]
				i++
				p := sudokulab.Puzzle{Givens: b.grid, Solution: b.solution, SymmetryForm: b.form, CountStatus: sudokulab.CountCounted}
				one := 1
				p.SolutionCount = &one
				if round > 0 {
					t := symmetry.Random(rng)
					p.Givens, p.Solution = t.Apply(b.grid), t.Apply(b.solution)
				}
				id, created, err := db.AddPuzzle(ctx, tx, &p)
				if err != nil {
					return err
				}
				if !created {
					continue // the same grid drawn twice: draw again next time round
				}
				have++
				if err := w.place(ctx, tx, round, b, id, have); err != nil {
					return err
				}
				st, err := ratePuzzle(ctx, tx, p, b, id)
				if err != nil {
					return err
				}
				out = append(out, st)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		fmt.Printf("\r%d puzzles", have)
	}
	fmt.Println()
	return out, nil
}

// rounds is how many times the listed puzzles are drawn: as read, then
// transformed; the last round's puzzles are in no collection but the
// sample.
const rounds = 10

// memberWriter puts the scale lab's puzzles into its collections, each
// collection's positions counted from 1.
type memberWriter struct {
	colls     map[string]int64
	positions map[int64]int
}

// join adds puzzle pid to the collection name (made with desc if new).
func (w *memberWriter) join(ctx context.Context, tx *sqlx.Tx, name, desc string, pid int64, label string, line int) error {
	cid, ok := w.colls[name]
	if !ok {
		var err error
		if cid, err = db.EnsureCollection(ctx, tx, name, desc); err != nil {
			return err
		}
		w.colls[name] = cid
	}
	w.positions[cid]++
	return db.AddMembership(ctx, tx, sudokulab.Membership{CollectionID: cid, PuzzleID: pid, Position: w.positions[cid], Label: label, SourceLine: line})
}

// place puts puzzle id, the have-th stored, drawn from b in round, into
// its collections: its list's as read, its round's once transformed, and
// every hundredth the sample.
func (w *memberWriter) place(ctx context.Context, tx *sqlx.Tx, round int, b *base, id int64, have int) error {
	label := fmt.Sprintf("%s:%d", b.file, b.line)
	var err error
	switch {
	case round == 0:
		err = w.join(ctx, tx, b.file, "The puzzles of "+b.file+".txt (tdoku's lists), as read", id, label, b.line)
	case round < rounds-1:
		err = w.join(ctx, tx, fmt.Sprintf("scale-round-%d", round), fmt.Sprintf("Round %d of transformations of the listed puzzles (symmetry.Random)", round),
			id, fmt.Sprintf("%s/t%d", label, round), 0)
	}
	if err == nil && have%100 == 0 {
		err = w.join(ctx, tx, "scale-sample", "Every hundredth puzzle of the scale lab", id, label, 0)
	}
	return err
}

// ratePuzzle stores the givens rater's rating of p (stored as id) and,
// where its list's puzzle was rated by the human rater, that rating too.
func ratePuzzle(ctx context.Context, tx *sqlx.Tx, p sudokulab.Puzzle, b *base, id int64) (stored, error) {
	g, err := raters.Givens{}.Rate(ctx, p.Givens)
	if err != nil {
		return stored{}, err
	}
	g.PuzzleID = id
	if err := db.UpsertRating(ctx, tx, g); err != nil {
		return stored{}, err
	}
	s := stored{id: id, givens: p.Givens, solution: p.Solution}
	if b.human != nil {
		h := *b.human
		h.PuzzleID = id
		if err := db.UpsertRating(ctx, tx, h); err != nil {
			return stored{}, err
		}
		s.level = levels[h.Label]
	}
	return s, nil
}

// experiment is one experiment of the scale lab: its configurations
// (indexes into the presets), puzzles, seeds and budget.
type experiment struct {
	name              string
	configs, puzzles  int
	seeds             int
	maxGens           int64
	hardOnly, pending bool
}

// experiments share the million runs (at o.runs = 1,000,000; fewer runs
// scale each one down).
var experiments = []experiment{
	{name: "scale-main", configs: 4, puzzles: 25000, seeds: 4, maxGens: 3000, pending: true},
	{name: "scale-seeds", configs: 2, puzzles: 5000, seeds: 20, maxGens: 2000},
	{name: "scale-hard", configs: 6, puzzles: 5000, seeds: 5, maxGens: 5000, hardOnly: true},
	{name: "scale-b", configs: 5, puzzles: 10000, seeds: 2, maxGens: 1000},
	{name: "scale-c", configs: 8, puzzles: 2500, seeds: 4, maxGens: 1000},
	{name: "scale-d", configs: 10, puzzles: 1000, seeds: 4, maxGens: 1000},
	{name: "scale-e", configs: 20, puzzles: 100, seeds: 10, maxGens: 500},
	{name: "scale-f", configs: 10, puzzles: 100, seeds: 10, maxGens: 500},
}

// addRuns records the experiments' runs through the work queue.
func addRuns(ctx context.Context, d *db.DB, o options, puzzles []stored, rng *rand.Rand) error {
	configs, err := db.ListConfigs(ctx, d)
	if err != nil {
		return err
	}
	var configIDs []int64
	for _, c := range configs {
		if c.Solver != "exact" { // the stochastic solvers' presets
			configIDs = append(configIDs, c.ID)
		}
	}
	scale := float64(o.runs) / 1e6
	byID := map[int64]stored{}
	for _, p := range puzzles {
		byID[p.id] = p
	}
	for ei, e := range experiments {
		eid, err := db.EnsureExperiment(ctx, d, e.name, fmt.Sprintf("scale lab: %d configurations x %d puzzles x %d seeds, at most %d generations (outcomes drawn from a model, not solved)", e.configs, e.puzzles, e.seeds, e.maxGens))
		if err != nil {
			return err
		}
		np := max(1, int(float64(e.puzzles)*scale))
		var ids []int64
		for _, k := range rng.Perm(len(puzzles)) {
			if len(ids) == np {
				break
			}
			if !e.hardOnly || puzzles[k].level >= 4 {
				ids = append(ids, puzzles[k].id)
			}
		}
		cids := make([]int64, e.configs)
		skill := map[int64]float64{}
		for i, k := range rng.Perm(len(configIDs))[:e.configs] {
			cids[i] = configIDs[k]
			skill[cids[i]] = 0.55 + 0.44*rng.Float64()
		}
		planned := int64(len(ids)) * int64(e.configs) * int64(e.seeds)
		if e.pending {
			// Two percent more puzzles than are run: the rest stays pending.
			extra := max(1, len(ids)/50)
			for _, k := range rng.Perm(len(puzzles)) {
				if extra == 0 {
					break
				}
				ids = append(ids, puzzles[k].id)
				extra--
			}
		}
		if _, err := db.Enqueue(ctx, d, db.PlanSpec{ExperimentID: eid, PuzzleIDs: ids, ConfigIDs: cids, FirstSeed: 1, SeedCount: int64(e.seeds),
			Budget: db.Budget{MaxGenerations: e.maxGens}, Trace: "improve,final"}, nil); err != nil {
			return err
		}
		clock := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(ei) * 72 * time.Hour)
		var done int64
		for done < planned {
			host := fmt.Sprintf("node%d", 1+done/5000%3)
			items, err := db.ClaimWork(ctx, d, db.Claim{Worker: host + ":1", ExperimentID: eid, N: int(min(5000, planned-done)), Lease: time.Hour})
			if err != nil {
				return err
			}
			if len(items) == 0 {
				return fmt.Errorf("experiment %s: no work left after %d of %d runs", e.name, done, planned)
			}
			fin := make([]db.FinishedWork, len(items))
			for i, it := range items {
				p := byID[it.PuzzleID]
				r, pts := outcome(rng, it, p, skill[it.ConfigID], clock, host)
				clock = clock.Add(time.Duration(*r.WallSeconds*1e9) + time.Millisecond)
				fin[i] = db.FinishedWork{WorkID: it.ID, Run: r, Points: pts}
			}
			if err := d.WithTx(ctx, func(tx *sqlx.Tx) error {
				_, err := db.CompleteWork(ctx, tx, fin)
				return err
			}); err != nil {
				return err
			}
			done += int64(len(items))
			fmt.Printf("\r%s: %d of %d runs", e.name, done, planned)
		}
		fmt.Println()
		if e.pending {
			// A few items running under a live lease, the rest pending.
			if _, err := db.ClaimWork(ctx, d, db.Claim{Worker: "node1:2", ExperimentID: eid, N: 8, Lease: 24 * time.Hour}); err != nil {
				return err
			}
		}
	}
	return nil
}

// outcome draws a run of item on p by a configuration of the given skill:
// solved with probability skill^level, after a number of generations
// within the budget; its trajectory is 5 to 15 points of falling cost.
func outcome(rng *rand.Rand, it db.WorkItem, p stored, skill float64, at time.Time, host string) (*sudokulab.Run, []sudokulab.TrajectoryPoint) {
	level := max(p.level, 2)
	solved := rng.Float64() < math.Pow(skill, float64(level))
	gens := it.MaxGenerations
	if solved {
		gens = 1 + int64(float64(it.MaxGenerations)*math.Pow(rng.Float64(), 2))
	}
	pop := int64(100)
	wall := float64(gens*pop) * (2e-6 + 1e-6*rng.Float64())
	r := &sudokulab.Run{ExperimentID: it.ExperimentID, PuzzleID: it.PuzzleID, ConfigID: it.ConfigID, Seed: it.Seed,
		MaxGenerations: it.MaxGenerations, Status: sudokulab.StatusSolved, Evaluations: gens * pop, Generations: gens,
		WallSeconds: &wall, CodeVersion: "scalelab", Host: host, StartedAt: at, FinishedAt: at.Add(time.Duration(wall * 1e9))}
	cost := 0
	final := sudokulab.Grid{Shape: p.solution.Shape, Cells: append([]uint8(nil), p.solution.Cells...)}
	if !solved {
		r.Status = sudokulab.StatusUnsolved
		cost = 2 + rng.IntN(12)
		// Swap cells within rows: each swap breaks two columns. A
		// solver never changes a given (merge refuses a run that
		// does): a given drawn stands for the next empty cell of its
		// row, so that the runs that drew none stay as they were.
		for range cost / 2 {
			row, a, b := rng.IntN(9), rng.IntN(9), rng.IntN(9)
			a, b = emptyFrom(p.givens, row, a), emptyFrom(p.givens, row, b)
			if a >= 0 && b >= 0 {
				final.Cells[9*row+a], final.Cells[9*row+b] = final.Cells[9*row+b], final.Cells[9*row+a]
			}
		}
	}
	r.BestCost, r.FinalGrid = &cost, final
	cpu := wall * 0.97
	r.CPUSeconds = &cpu
	n := 5 + rng.IntN(11)
	pts := make([]sudokulab.TrajectoryPoint, n)
	c := 30 + rng.IntN(30)
	for k := range pts {
		g := gens * int64(k) / int64(n-1)
		if k == n-1 {
			c = cost
		} else if c > cost {
			c -= rng.IntN((c-cost)/2 + 1)
		}
		cur := float64(c) + 5*rng.Float64()
		pts[k] = sudokulab.TrajectoryPoint{Seq: k, Generation: g, Evaluations: g * pop, ElapsedSeconds: wall * float64(k) / float64(n-1),
			BestCost: c, CurrentCost: &cur}
	}
	return r, pts
}

// emptyFrom returns the column of the first cell of row, from column col
// on and round, that is not a given of the 9x9 puzzle givens; -1 when the
// row is full.
func emptyFrom(givens sudokulab.Grid, row, col int) int {
	for k := range 9 {
		if c := (col + k) % 9; givens.Cells[9*row+c] == 0 {
			return c
		}
	}
	return -1
}
