package db

import (
	"context"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// PuzzleView is a stored puzzle with what the store holds about it, as
// puzzles show prints it: its places in collections, its ratings and its
// first runs, each also as a Table.
type PuzzleView struct {
	Puzzle *sudokulab.Puzzle
	// Memberships has the columns collection, position, label,
	// source_line (NULL when unknown) and metadata.
	Memberships Table
	Ratings     []sudokulab.Rating
	// RatingTable has the columns rater, version, options, value, label,
	// details and import_id: NULL for the lab's own ratings, set for a
	// file's (its claim).
	RatingTable Table
	// Runs counts all the puzzle's runs; FirstRuns lists at most the
	// firstRuns asked for, by id, with the columns run, config_id, seed,
	// status, generations, evaluations and best_cost.
	Runs      int
	FirstRuns Table
}

// ViewPuzzle reads the puzzle with the given id and what the store holds
// about it, listing at most firstRuns of its runs.
func ViewPuzzle(ctx context.Context, x sqlx.ExtContext, id int64, firstRuns int) (*PuzzleView, error) {
	p, err := GetPuzzle(ctx, x, id)
	if err != nil {
		return nil, err
	}
	ms, err := PuzzleCollections(ctx, x, id)
	if err != nil {
		return nil, err
	}
	ratings, err := PuzzleRatings(ctx, x, id)
	if err != nil {
		return nil, err
	}
	runs, err := PuzzleRuns(ctx, x, id)
	if err != nil {
		return nil, err
	}
	return &PuzzleView{Puzzle: p, Memberships: membershipTable(ms), Ratings: ratings, RatingTable: ratingTable(ratings),
		Runs: len(runs), FirstRuns: runTable(runs[:min(len(runs), firstRuns)])}, nil
}

// membershipTable lists a puzzle's places in collections.
func membershipTable(ms []sudokulab.Membership) Table {
	t := Table{Columns: []string{"collection", "position", "label", "source_line", "metadata"}, Rows: make([][]any, len(ms))}
	for i, m := range ms {
		var line any
		if m.SourceLine > 0 {
			line = m.SourceLine
		}
		t.Rows[i] = []any{m.Collection, m.Position, m.Label, line, m.Metadata}
	}
	return t
}

// ratingTable lists a puzzle's ratings.
func ratingTable(ratings []sudokulab.Rating) Table {
	t := Table{Columns: []string{"rater", "version", "options", "value", "label", "details", "import_id"}, Rows: make([][]any, len(ratings))}
	for i, r := range ratings {
		var v, imp any
		if r.Value != nil {
			v = *r.Value
		}
		if r.ImportID != 0 {
			imp = r.ImportID
		}
		t.Rows[i] = []any{r.Rater, r.RaterVersion, r.Options, v, r.Label, r.Details, imp}
	}
	return t
}

// runTable lists runs of a puzzle.
func runTable(runs []sudokulab.Run) Table {
	t := Table{Columns: []string{"run", "config_id", "seed", "status", "generations", "evaluations", "best_cost"}}
	for _, r := range runs {
		var cost any
		if r.BestCost != nil {
			cost = *r.BestCost
		}
		t.Rows = append(t.Rows, []any{r.ID, r.ConfigID, r.Seed, r.Status, r.Generations, r.Evaluations, cost})
	}
	return t
}
