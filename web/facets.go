package web

import (
	"context"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab/db"
)

// cubeCache keeps the catalog's facet cube (db.CatalogCube) while the
// database is unchanged. While another process writes (workers recording
// runs change the file every second, mostly without changing the
// catalog) it is counted again at most every lag (Options.FacetsLag), so
// the facet counts may lag that much behind; where changes cannot be
// seen (PostgreSQL) it is counted again when older than lag. The rows of
// the table are always read afresh.
type cubeCache struct {
	mu    sync.Mutex
	watch *db.ChangeWatch
	cube  db.CatalogCube
	seen  int64
	at    time.Time
	valid bool
	lag   time.Duration
}

// cubeMaxAge bounds how long the cube is kept once the database changed.
const cubeMaxAge = 10 * time.Second

// version reads the database's change counter (see db.ChangeWatch),
// before the snapshot the cube may be counted in begins, so that a change
// between the two is seen next time.
func (c *cubeCache) version(ctx context.Context) (v int64, known bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.watch.Version(ctx)
}

// get returns the cube, counting it again in cat when the database
// changed since (version v; known false where a change cannot be seen)
// and it is older than the lag, and when it was counted.
func (c *cubeCache) get(ctx context.Context, v int64, known bool, cat *db.Catalog) (db.CatalogCube, time.Time, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.valid && (known && v == c.seen || time.Since(c.at) < c.lag) {
		return c.cube, c.at, nil
	}
	cube, err := cat.Cube(ctx)
	if err != nil {
		return db.CatalogCube{}, time.Time{}, err
	}
	c.cube, c.seen, c.at, c.valid = cube, v, time.Now(), true
	return cube, c.at, nil
}

// catalogCube returns the facet cube (counted again if the database
// changed) outside any other reading.
func (s *Server) catalogCube(ctx context.Context) (db.CatalogCube, error) {
	v, known, err := s.cubes.version(ctx)
	if err != nil {
		return db.CatalogCube{}, err
	}
	var cube db.CatalogCube
	err = s.db.Snapshot(ctx, func(tx *sqlx.Tx) error {
		cat, err := db.NewCatalog(ctx, tx)
		if err == nil {
			cube, _, err = s.cubes.get(ctx, v, known, cat)
		}
		return err
	})
	return cube, err
}
