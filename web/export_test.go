package web

import (
	"context"
	"sync"
	"time"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/figures"
)

// KeptMax bounds the values a keeper holds.
const KeptMax = keptMax

// Keeper is the keeper of a Server's pages, for the tests of its
// goroutines.
type Keeper struct{ k *keeper }

// NewKeeper returns a keeper over watch with the lag of Options.FacetsLag.
func NewKeeper(watch *db.ChangeWatch, lag time.Duration) Keeper {
	return Keeper{newKeeper(watch, lag)}
}

// Get returns the value under key as a page gets it, waiting at most
// wait for its first computation (ok false past it).
func (k Keeper) Get(ctx context.Context, key string, wait time.Duration, compute func(context.Context) (any, error)) (v any, ok bool, err error) {
	v, _, ok, err = k.k.get(ctx, key, keep{wait: wait}, compute)
	return v, ok, err
}

// GetExact returns the value under key as the console gets a canned
// query's result: exact, its size given by size (nil: none).
func (k Keeper) GetExact(ctx context.Context, key string, wait time.Duration, size func(any) int64, compute func(context.Context) (any, error)) (v any, ok bool, err error) {
	v, _, ok, err = k.k.get(ctx, key, keep{wait: wait, exact: true, size: size}, compute)
	return v, ok, err
}

// KeptMaxBytes bounds the bytes of the values with a size a keeper holds.
const KeptMaxBytes = keptMaxBytes

// HoldCannedSlot takes the slot of the canned query computed in the
// background, so that none is until release is called.
func HoldCannedSlot(s *Server) (release func()) {
	s.cannedSlot <- struct{}{}
	return func() { <-s.cannedSlot }
}

// Close ends the computations under way and waits for them, as
// Server.Close does.
func (k Keeper) Close() { k.k.close() }

// SetPathFinder makes s find solution paths with find, which returns no
// step: for the tests of the searches' goroutines. Call it before s
// serves.
func SetPathFinder(s *Server, find func(ctx context.Context) error) {
	s.paths.find = func(ctx context.Context, _ string, _ sudokulab.Grid, timeout time.Duration) (solvedPath, error) {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		return solvedPath{}, find(ctx)
	}
}

// CountFigureDraws makes s count the pictures it draws, by kind, into
// drawn, which the caller reads after the requests; call it before s
// serves.
func CountFigureDraws(s *Server, drawn map[string]int) {
	var mu sync.Mutex
	s.figureDrawn = func(r figures.Request) {
		mu.Lock()
		defer mu.Unlock()
		drawn[r.Kind]++
	}
}
