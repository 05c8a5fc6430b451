package web

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab/db"
)

// facetsFirstWait bounds how long a page waits for the first facet count
// (seconds for a million puzzles): past it the page shows its rows
// without facets, and the count goes on in the background (keeper).
const facetsFirstWait = 2 * time.Second

// facetCube returns the facet cube for a page and when it was counted; ok
// is false while the first count is under way.
func (s *Server) facetCube(ctx context.Context) (cube db.CatalogCube, at time.Time, ok bool, err error) {
	v, at, ok, err := s.kept.get(ctx, "facets", keep{wait: facetsFirstWait}, func(ctx context.Context) (any, error) { return s.countCube(ctx) })
	if !ok || err != nil {
		return cube, at, false, err
	}
	return v.(db.CatalogCube), at, true, nil
}

// countCube counts the facet cube in a read transaction of its own.
func (s *Server) countCube(ctx context.Context) (db.CatalogCube, error) {
	var cube db.CatalogCube
	err := s.db.Snapshot(ctx, func(tx *sqlx.Tx) error {
		cat, err := db.NewCatalog(ctx, tx)
		if err == nil {
			cube, err = cat.Cube(ctx)
		}
		return err
	})
	return cube, err
}
