package generator

import (
	"context"
	"fmt"
	"time"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/symmetry"
)

// Format names a generation in the lab: the format of its row of imports
// and the generator its puzzles record.
const Format = "generate"

// StoreOptions say where and how Store writes a generation.
type StoreOptions struct {
	// Collection receives the puzzles, created if needed.
	Collection string
	// Count is how many puzzles to make, Jobs on how many goroutines (0:
	// one per CPU).
	Count, Jobs int
	// Batch, Every and Committed are as in db.Generation: the puzzles of
	// one transaction, the time between two (0: the defaults), and a
	// function told the puzzles written after each.
	Batch     int
	Every     time.Duration
	Committed func(puzzles int)
	// Start, when not nil, is called once the generation's row is stored,
	// before the first puzzle; Made after each puzzle made (a progress
	// bar).
	Start, Made func()
}

// Stored is what Store wrote: the puzzles and the generation's row of
// imports, with its counts. Err is why the generation stopped before
// Count puzzles (an ended context, a candidate that never fitted), nil
// when it made them all; what it made is stored all the same.
type Stored struct {
	Written int
	Import  sudokulab.Import
	Err     error
}

// Store makes o.Count puzzles with g, the first index 0, and stores them
// in d as they come, in short transactions (db.BeginGeneration), each in
// o.Collection with its provenance prov (Provenance.Membership, labelled
// gen-SEED-INDEX), counted, with its symmetry form (9x9) and rating. The
// generation is a row of imports in Format whose notes say the generator,
// its version and options and how it ended. The error is one of storing;
// the generation's own is Stored.Err.
func Store(ctx context.Context, d *db.DB, g *Generator, prov Provenance, o StoreOptions) (Stored, error) {
	optionsJSON := prov.JSON()
	w, err := d.BeginGeneration(ctx, db.Generation{Collection: o.Collection, Count: o.Count, Batch: o.Batch, Every: o.Every,
		Import: sudokulab.Import{FileName: "sudokulab generate " + prov.Args(), FileSHA256: prov.SHA256(), Format: Format},
		Notes: func(state string) string {
			return "generator " + Format + " " + Version + "\noptions " + optionsJSON + "\n" + state
		},
		Committed: o.Committed})
	if err != nil {
		return Stored{}, err
	}
	if o.Start != nil {
		o.Start()
	}
	var canon symmetry.Canonicalizer
	genErr := g.Generate(ctx, 0, o.Count, o.Jobs, func(p Puzzle) error {
		row, err := p.row(prov, &canon)
		if err != nil {
			return err
		}
		if o.Made != nil {
			o.Made()
		}
		return w.Add(ctx, row)
	})
	err = w.Finish(ctx, func(written int) string {
		if genErr != nil {
			return fmt.Sprintf("stopped after %d of %d puzzles: %v", written, o.Count, genErr)
		}
		return "done"
	})
	if err != nil {
		return Stored{}, err
	}
	return Stored{Written: w.Written(), Import: w.Import(), Err: genErr}, nil
}

// row is a generated puzzle as stored: counted, with its symmetry form
// (9x9), its rating, and its provenance as the metadata of its
// membership, labelled gen-SEED-INDEX.
func (p Puzzle) row(prov Provenance, canon *symmetry.Canonicalizer) (db.ImportRow, error) {
	pz, err := p.Stored(canon)
	if err != nil {
		return db.ImportRow{}, err
	}
	row := db.ImportRow{Puzzle: pz, Membership: prov.Membership(p)}
	if p.Rating != nil {
		row.Ratings = []sudokulab.Rating{*p.Rating}
	}
	return row, nil
}
