package db

import (
	"context"

	"github.com/jmoiron/sqlx"
)

// Listing is a collection that lists a puzzle, with the puzzle's place,
// label and provenance there.
type Listing struct {
	Collection string  `db:"collection" json:"collection"`
	Position   int64   `db:"position" json:"position"`
	Label      string  `db:"label" json:"label"`
	SourceLine *int64  `db:"source_line" json:"source_line"`
	ImportID   *int64  `db:"import_id" json:"import_id"`
	Metadata   *string `db:"metadata" json:"metadata"`
}

// PuzzleListings returns the collections listing puzzle id, by name,
// leaving out what imports still loading added.
func PuzzleListings(ctx context.Context, x sqlx.ExtContext, id int64) ([]Listing, error) {
	out := []Listing{}
	err := sqlx.SelectContext(ctx, x, &out, x.Rebind(`
		SELECT c.name AS collection, cp.position, cp.label, cp.source_line, cp.import_id, cp.metadata
		FROM collection_puzzles cp JOIN collections c ON c.id = cp.collection_id
		WHERE cp.puzzle_id = ? AND `+notLoading("cp.import_id")+` ORDER BY c.name`), id)
	return out, dbError(err, "puzzle listings")
}
