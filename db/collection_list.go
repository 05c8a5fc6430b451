package db

import (
	"context"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// CollectionList lists the collections by name, as ListCollections does
// but without counting their puzzles (Puzzles is 0), which reads every
// membership: the web interface takes the counts from the catalog's facet
// counts (CatalogCube) instead.
func CollectionList(ctx context.Context, x sqlx.ExtContext) ([]sudokulab.Collection, error) {
	rows, err := x.QueryxContext(ctx, `SELECT c.id, c.name, c.description, c.created_at, c.frozen
		FROM collections c WHERE `+notLoading("c.import_id")+` ORDER BY c.name`)
	if err != nil {
		return nil, dbError(err, "list collections")
	}
	defer rows.Close()
	out := []sudokulab.Collection{}
	for rows.Next() {
		var c sudokulab.Collection
		if err := rows.Scan(&c.ID, &c.Name, &c.Description, timeCol{&c.CreatedAt}, &c.Frozen); err != nil {
			return nil, dbError(err, "list collections")
		}
		out = append(out, c)
	}
	return out, dbError(rows.Err(), "list collections")
}
