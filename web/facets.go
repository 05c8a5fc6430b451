package web

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab/db"
)

// facetsFirstWait bounds how long a page waits for the first reading of
// the catalog index (seconds for a million puzzles): past it the page
// shows its rows without facets, and the reading goes on in the
// background (keeper).
const facetsFirstWait = 2 * time.Second

// facetsKey is the keeper's key of the catalog index.
const facetsKey = "facets"

// facetCube returns the facet cube for a page and when it was counted; ok
// is false while the first count is under way.
func (s *Server) facetCube(ctx context.Context) (cube db.CatalogCube, at time.Time, ok bool, err error) {
	ix, at, ok, err := s.facetIndex(ctx)
	if !ok || err != nil {
		return cube, at, false, err
	}
	return ix.Cube(), at, true, nil
}

// facetIndex returns the catalog index kept for the facets (which may lag
// behind the database: see keeper) and when it was read; ok is false while
// the first reading is under way.
func (s *Server) facetIndex(ctx context.Context) (ix *db.CatalogIndex, at time.Time, ok bool, err error) {
	v, at, ok, err := s.kept.get(ctx, facetsKey, keep{wait: facetsFirstWait}, func(ctx context.Context) (any, error) { return s.readIndex(ctx) })
	if !ok || err != nil {
		return nil, at, false, err
	}
	return v.(*db.CatalogIndex), at, true, nil
}

// currentIndex returns the catalog index kept when it was read from the
// database as it is now (nil otherwise: kept while the database changed,
// or on an engine whose changes cannot be seen). Called in a read
// transaction that has read already, it holds for that transaction's
// snapshot: a change committed before it began would have been seen.
func (s *Server) currentIndex(ctx context.Context) (*db.CatalogIndex, error) {
	v, err := s.kept.current(ctx, facetsKey)
	if v == nil || err != nil {
		return nil, err
	}
	return v.(*db.CatalogIndex), nil
}

// readIndex reads the catalog index in a read transaction of its own.
func (s *Server) readIndex(ctx context.Context) (*db.CatalogIndex, error) {
	var ix *db.CatalogIndex
	err := s.db.Snapshot(ctx, func(tx *sqlx.Tx) error {
		cat, err := db.NewCatalog(ctx, tx)
		if err == nil {
			ix, err = cat.Index(ctx)
		}
		return err
	})
	return ix, err
}
