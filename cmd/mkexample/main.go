// Command mkexample builds lab.db.example, the small database shipped with
// sudokulab: the puzzles of the five papers, each checked by the exact
// solver, in one collection per paper plus one with them all, the presets
// of every registered solver with a few sample runs of each, and ratings by
// every rater. Run it from
// the repository root:
//
//	go run ./cmd/mkexample            # writes lab.db.example
//	go run ./cmd/mkexample -o other.db
//	go run ./cmd/mkexample -migrate   # after a schema change
//
// The puzzles come from internal/paperdata (a copy of
// shared/data/paper-puzzles.csv). The output is rebuilt from scratch, so
// the command is reproducible: the same code gives the same rows, except
// the sample runs' clock readings (CPU seconds, times). Tests draw golden
// pictures from those runs, so after a schema change -migrate brings the
// file to the newest migration in place, every row kept, and packs it.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/paperdata"
	"sudokulab/raters"
	"sudokulab/runner"
	"sudokulab/solvers"
	"sudokulab/solvers/exact"
)

// collection is one collection of the example database.
type collection struct {
	name, description string
	// paper selects the CSV rows whose paper column is this file.
	paper string
	// also adds puzzles the paper uses that the CSV files under another
	// paper, with the paper's own name for them.
	also []alias
}

type alias struct{ puzzle, paperName string }

// allPuzzles names the collection that holds every paper puzzle.
const allPuzzles = "paper-puzzles"

// collections lists the example's collections. The cross references follow
// shared/data/README.md and shared/papers/TARGETS.md.
var collections = []collection{
	{name: allPuzzles, description: "Every puzzle of the five papers (shared/data/paper-puzzles.csv)"},
	{name: "reseda-2012", paper: "reseda-maire-prissette-2012.txt",
		description: "Maire and Prissette 2012, A restarted estimation of distribution algorithm for solving sudoku puzzles"},
	{name: "sato-inoue-2010", paper: "ga-building-blocks-sato-inoue-2010.txt",
		description: "Sato and Inoue 2010, genetic algorithm with building-block-preserving crossover",
		also:        []alias{{"ai-escargot", "SD2"}}},
	{name: "nb-coin", description: "Waiyapara, Wattanapornprom and Chongstitvatana, NB-COIN: the six Sato-Inoue puzzles of its Table I",
		also: []alias{{"sato-no1", "No. 1"}, {"sato-no11", "No. 11"}, {"sato-no27", "No. 27"}, {"sato-no29", "No. 29"}, {"sato-no77", "No. 77"}, {"sato-no106", "No. 106"}}},
	{name: "franco-tabu-ga", description: "Franco, Gomez and Gallego, tabu search and a genetic algorithm (Spanish): Caso 1; cases 2-4 are not in the text",
		also: []alias{{"reseda-medium", "Caso 1"}}},
	{name: "soto-2014", description: "Soto et al. 2014, prefiltered cuckoo search: its own puzzles are not in the text, so the easy, medium and hard RESEDA puzzles stand in (shared/papers/TARGETS.md)",
		also: []alias{{"reseda-easy", "easy"}, {"reseda-medium", "medium"}, {"reseda-hard", "hard"}}},
}

func main() {
	out := flag.String("o", "lab.db.example", "database file to write (replaced)")
	migrateOnly := flag.Bool("migrate", false, "migrate the existing file in place, keeping its rows, instead of rebuilding it")
	flag.Parse()
	run := build
	if *migrateOnly {
		run = migrate
	}
	if err := run(context.Background(), *out); err != nil {
		fmt.Fprintln(os.Stderr, "mkexample:", err)
		os.Exit(1)
	}
}

// migrate brings the database out to the newest migration, keeping its
// rows, and packs it into one file as build does.
func migrate(ctx context.Context, out string) error {
	if _, err := os.Stat(out); err != nil {
		return err
	}
	d, err := db.Open(ctx, out)
	if err != nil {
		return err
	}
	err = d.Pack(ctx)
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err := os.Remove(out + "-writers"); err != nil && !os.IsNotExist(err) {
		return err
	}
	if err != nil {
		return err
	}
	fmt.Printf("migrated %s to schema version %d, its rows kept\n", out, d.LatestVersion())
	return nil
}

func build(ctx context.Context, out string) error {
	tmp := out + ".new"
	for _, f := range []string{tmp, tmp + "-wal", tmp + "-shm", tmp + "-writers"} {
		if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	d, err := db.Open(ctx, tmp)
	if err != nil {
		return err
	}
	ids := map[string]int64{}
	err = d.WithTx(ctx, func(tx *sqlx.Tx) error {
		for _, p := range paperdata.All() {
			res, err := exact.Solve(ctx, p.Puzzle, 2)
			if err != nil {
				return err
			}
			if res.Count != 1 || !res.Solution.Equal(p.Solution) {
				return fmt.Errorf("%s: the exact solver finds %d solutions (%s), the CSV lists %s", p.Name, res.Count, res.Solution, p.Solution)
			}
			pz := &sudokulab.Puzzle{Givens: p.Puzzle, Solution: res.Solution, SolutionCount: &res.Count}
			if _, _, err := db.AddPuzzle(ctx, tx, pz); err != nil {
				return fmt.Errorf("%s: %w", p.Name, err)
			}
			ids[p.Name] = pz.ID
		}
		for _, c := range collections {
			cid, err := db.EnsureCollection(ctx, tx, c.name, c.description)
			if err != nil {
				return err
			}
			for _, p := range paperdata.All() {
				if c.name != allPuzzles && (c.paper == "" || p.Paper != c.paper) {
					continue
				}
				if err := addMember(ctx, tx, cid, ids[p.Name], p, ""); err != nil {
					return err
				}
			}
			for _, a := range c.also {
				p := paperdata.MustGet(a.puzzle)
				if err := addMember(ctx, tx, cid, ids[p.Name], p, a.paperName); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err == nil {
		// The presets of every registered solver, as any database opened by
		// sudokulab gets them, so sqlite3 users see them too.
		err = runner.SyncPresets(ctx, d, solvers.Default())
	}
	if err == nil {
		err = sampleRuns(ctx, d, ids)
	}
	if err == nil {
		err = rateAll(ctx, d)
	}
	if err == nil {
		// One self-contained file to commit.
		err = d.Pack(ctx)
	}
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		return err
	}
	// The writers' signal file of the build (see db.Pacer) is no part of
	// the result.
	if err := os.Remove(tmp + "-writers"); err != nil && !os.IsNotExist(err) {
		return err
	}
	fmt.Printf("wrote %s: %d puzzles in %d collections\n", out, len(ids), len(collections))
	return nil
}

// Sample runs: every preset on two easy paper puzzles with two seeds and a
// small budget, so that every canned query and plot has something to show
// on a fresh clone. They are samples, not results: docs/reproduction-*.md
// has the experiments.
const (
	sampleExperiment  = "example-samples"
	sampleGenerations = 300
	sampleTimeout     = 2 * time.Second
)

var samplePuzzles = []string{"reseda-easy", "sato-no1"}

// presetPuzzles names the sample puzzles of presets made for one puzzle.
var presetPuzzles = map[string][]string{
	// Fixes AI Escargot's right top-left permutation (RESEDA section 5.2).
	"reseda-sec5.2-fixed-block": {"ai-escargot"},
}

func sampleRuns(ctx context.Context, d *db.DB, ids map[string]int64) error {
	reg := solvers.Default()
	if _, err := db.EnsureExperiment(ctx, d, sampleExperiment,
		fmt.Sprintf("every preset on %v (presets made for one puzzle on that one), seeds 1-2, at most %d generations or %v per run: samples for the canned queries and plots, not results", samplePuzzles, sampleGenerations, sampleTimeout)); err != nil {
		return err
	}
	// One plan per puzzle list, each the cross product of its puzzles,
	// presets and seeds, as sudokulab run --puzzle ... --config ... gives
	// it.
	specs := map[string]*runner.Spec{}
	var order []string
	for _, info := range reg.All() {
		for _, preset := range info.Presets {
			names := samplePuzzles
			if ps, ok := presetPuzzles[preset.Name]; ok {
				names = ps
			}
			key := fmt.Sprint(names)
			spec, ok := specs[key]
			if !ok {
				spec = &runner.Spec{
					Experiment: sampleExperiment,
					FirstSeed:  1,
					Seeds:      2,
					Budget:     sudokulab.Budget{MaxGenerations: sampleGenerations},
					Timeout:    sampleTimeout,
					Trace:      runner.DefaultTrace,
				}
				for _, name := range names {
					spec.PuzzleIDs = append(spec.PuzzleIDs, ids[name])
				}
				specs[key] = spec
				order = append(order, key)
			}
			spec.Configs = append(spec.Configs, preset.Name)
		}
	}
	runs := 0
	for _, key := range order {
		sum, err := runner.Run(ctx, d, reg, *specs[key], runner.Options{})
		if err != nil {
			return err
		}
		runs += sum.Recorded
	}
	fmt.Printf("recorded %d sample runs\n", runs)
	return nil
}

// rateAll rates every puzzle with every rater; empirical uses the exact
// solver's sample runs.
func rateAll(ctx context.Context, d *db.DB) error {
	puzzles, err := db.ListPuzzles(ctx, d, "", 0)
	if err != nil {
		return err
	}
	reg := raters.Default()
	return d.WithTx(ctx, func(tx *sqlx.Tx) error {
		for _, name := range reg.Names() {
			info, err := reg.Lookup(name)
			if err != nil {
				return err
			}
			opts := map[string]string{}
			if info.NeedsDB {
				opts["config"] = "exact"
			}
			r, err := info.New(ctx, raters.Env{Options: opts, DB: tx})
			if err != nil {
				return fmt.Errorf("rater %s: %w", name, err)
			}
			for _, p := range puzzles {
				rating, err := r.Rate(ctx, p.Givens)
				if err != nil {
					return fmt.Errorf("rate puzzle %d by %s: %w", p.ID, name, err)
				}
				rating.PuzzleID = p.ID
				if err := db.UpsertRating(ctx, tx, rating); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

func addMember(ctx context.Context, tx *sqlx.Tx, cid, pid int64, p paperdata.Puzzle, paperName string) error {
	meta := map[string]string{"paper": p.Paper, "figure": p.Label, "level": p.Level}
	if paperName != "" {
		meta["name_in_paper"] = paperName
	}
	b, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	return db.AddMembership(ctx, tx, sudokulab.Membership{CollectionID: cid, PuzzleID: pid, Label: p.Name, Metadata: string(b)})
}
