package db

import (
	"context"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// CollectionView is a collection with its puzzles and the imports into
// it, as collections show prints it.
type CollectionView struct {
	Collection *sudokulab.Collection
	// Members lists its puzzles in order (see CollectionTable).
	Members Table
	// Imports lists the imports into it, newest first (see ImportTable).
	Imports Table
}

// ViewCollection reads the collection called name, at most limit of its
// puzzles (0: all) and the imports into it; a missing collection is an
// ENOTFOUND error.
func ViewCollection(ctx context.Context, x sqlx.ExtContext, name string, limit int) (*CollectionView, error) {
	c, err := GetCollection(ctx, x, name)
	if err != nil {
		return nil, err
	}
	members, err := CollectionTable(ctx, x, name, limit)
	if err != nil {
		return nil, err
	}
	imports, err := ImportTable(ctx, x, name)
	if err != nil {
		return nil, err
	}
	return &CollectionView{Collection: c, Members: members, Imports: imports}, nil
}

// CollectionListTable lists the collections by name, as collections list
// prints them: the columns name, puzzles, created_at, description and
// frozen.
func CollectionListTable(ctx context.Context, x sqlx.ExtContext) (Table, error) {
	cs, err := ListCollections(ctx, x)
	if err != nil {
		return Table{}, err
	}
	t := Table{Columns: []string{"name", "puzzles", "created_at", "description", "frozen"}, Rows: make([][]any, len(cs))}
	for i, c := range cs {
		t.Rows[i] = []any{c.Name, c.Puzzles, c.CreatedAt, c.Description, c.Frozen}
	}
	return t, nil
}
