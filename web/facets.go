package web

import (
	"context"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab/db"
)

// cubeCache keeps the catalog's facet cube (db.CatalogCube) while the
// database is unchanged. Once it changed (workers recording runs change
// the file every second, mostly without changing the catalog) and the
// cube is older than lag (Options.FacetsLag; where changes cannot be seen,
// on PostgreSQL, when it is older than lag), it is counted again in the
// background while pages show the one kept: the facet counts may lag that
// much and the time a count takes, but no page waits for a count, except
// the first, and that one at most facetsFirstWait (then the page shows no
// facets yet). With a negative lag every change is counted at once, in
// the request. The rows of the table are always read afresh.
type cubeCache struct {
	mu    sync.Mutex
	watch *db.ChangeWatch
	cube  db.CatalogCube
	seen  int64
	at    time.Time
	valid bool
	lag   time.Duration
	// counting is closed when the background count under way ends; nil
	// when none is. stop ends it (Close), wg waits for it.
	counting chan struct{}
	stop     context.CancelFunc
	wg       sync.WaitGroup
}

// facetsFirstWait bounds how long a page waits for the first facet count
// (40 s for a million puzzles).
const facetsFirstWait = 2 * time.Second

// facetCube returns the facet cube for a page and when it was counted; ok
// is false while the first count is under way.
func (s *Server) facetCube(ctx context.Context) (cube db.CatalogCube, at time.Time, ok bool, err error) {
	c := &s.cubes
	c.mu.Lock()
	// The change counter is read before the count's snapshot begins, so
	// that a change between the two is seen next time.
	v, known, err := c.watch.Version(ctx)
	if err != nil {
		c.mu.Unlock()
		return cube, at, false, err
	}
	if c.valid && (known && v == c.seen || c.lag >= 0 && time.Since(c.at) < c.lag) {
		defer c.mu.Unlock()
		return c.cube, c.at, true, nil
	}
	if c.lag < 0 {
		defer c.mu.Unlock()
		cube, err := s.countCube(ctx)
		if err != nil {
			return cube, at, false, err
		}
		c.cube, c.seen, c.at, c.valid = cube, v, time.Now(), true
		return c.cube, c.at, true, nil
	}
	if c.counting == nil {
		done := make(chan struct{})
		bctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		c.counting, c.stop = done, cancel
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			defer cancel()
			cube, err := s.countCube(bctx)
			c.mu.Lock()
			defer c.mu.Unlock()
			if err != nil {
				s.log.Printf("facet counts: %v", err)
			} else {
				c.cube, c.seen, c.at, c.valid = cube, v, time.Now(), true
			}
			close(done)
			c.counting, c.stop = nil, nil
		}()
	}
	if c.valid {
		defer c.mu.Unlock()
		return c.cube, c.at, true, nil // the one kept, while the new one is counted
	}
	done := c.counting
	c.mu.Unlock()
	select {
	case <-done:
	case <-time.After(facetsFirstWait):
		return cube, at, false, nil
	case <-ctx.Done():
		return cube, at, false, ctx.Err()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cube, c.at, c.valid, nil
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

// close ends a count under way and waits for it.
func (c *cubeCache) close() {
	c.mu.Lock()
	if c.stop != nil {
		c.stop()
	}
	c.mu.Unlock()
	c.wg.Wait()
}
