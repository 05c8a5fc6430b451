package generator_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/generator"
)

// TestStore makes and stores a generation of 4x4 puzzles: every puzzle in
// the collection, the import's row saying how it ended, the hooks called;
// a generation stopped by its context keeps what it stored and says so.
func TestStore(t *testing.T) {
	ctx := context.Background()
	d, err := db.OpenOptions(ctx, filepath.Join(t.TempDir(), "lab.db"), db.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	opts := generator.Options{Shape: sudokulab.Shape{BoxRows: 2, BoxCols: 2}, Seed: 7}
	gen, err := generator.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	prov := generator.NewProvenance("sudokulab "+generator.Format, opts, 7, 5, "")
	started, made := 0, 0
	st, err := generator.Store(ctx, d, gen, prov, generator.StoreOptions{Collection: "small", Count: 5, Jobs: 1,
		Start: func() { started++ }, Made: func() { made++ }})
	if err != nil || st.Err != nil || st.Written != 5 || started != 1 || made != 5 {
		t.Fatalf("Store = %+v, %v; started %d, made %d", st, err, started, made)
	}
	im := st.Import
	if im.Format != generator.Format || im.PuzzlesRead != 5 || im.PuzzlesNew+im.PuzzlesDuplicate != 5 ||
		!strings.Contains(im.Notes, "generator generate "+generator.Version) || !strings.HasSuffix(im.Notes, "\ndone") {
		t.Errorf("import %+v", im)
	}

	ctx2, cancel := context.WithCancel(ctx)
	defer cancel()
	gen, err = generator.New(generator.Options{Shape: sudokulab.Shape{BoxRows: 2, BoxCols: 2}, Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	st, err = generator.Store(ctx2, d, gen, prov, generator.StoreOptions{Collection: "stopped", Count: 1000, Jobs: 1, Batch: 2,
		Committed: func(int) { cancel() }})
	if err != nil || !errors.Is(st.Err, context.Canceled) || st.Written < 2 || st.Written >= 1000 ||
		!strings.Contains(st.Import.Notes, "stopped after") {
		t.Errorf("stopped Store = %+v, %v; want the puzzles of the first batch kept and context.Canceled", st, err)
	}
}
