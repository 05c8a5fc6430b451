package db_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pressly/goose/v3"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/paperdata"
	"sudokulab/migrations"
)

// tagSnapshot lists the tags of d in ids-free terms: each puzzle's grid
// with its tag.
func tagSnapshot(t testing.TB, d *db.DB) []string {
	t.Helper()
	var out []string
	err := d.SelectContext(context.Background(), &out, `SELECT p.grid || ' ' || t.tag FROM puzzle_tags t
		JOIN puzzles p ON p.id = t.puzzle_id`)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestMergeTags merges the lab's tags into a destination that stores the
// same puzzles under other ids, one of them with a tag of its own and
// one the source has too: the source's tags arrive on the same puzzles,
// the shared one once, and merging again changes nothing.
func TestMergeTags(t *testing.T) {
	ctx := context.Background()
	src := newMergeLab(t)
	want := tagSnapshot(t, mergeOpenRead(t, src.path))
	if len(want) != 4 {
		t.Fatalf("the lab has tags %q, want 4", want)
	}
	forEachBackend(t, func(t *testing.T, b backend) {
		dst := b.open(t)
		// sato-no1 (puzzle 3 of the source) comes second here.
		first, mine := fromSolution(t, 40), sudokulab.Puzzle{Givens: paperdata.MustGet("sato-no1").Puzzle}
		for _, p := range []*sudokulab.Puzzle{first, &mine} {
			if _, _, err := db.AddPuzzle(ctx, dst, p); err != nil {
				t.Fatal(err)
			}
		}
		for _, tag := range []string{"classic", "mine"} {
			if _, err := dst.Tag(ctx, tag, []int64{mine.ID}); err != nil {
				t.Fatal(err)
			}
		}
		rep := mergeFiles(t, dst, src.path)[0]
		if c := rep.Count(db.MergeTags); c.Added != 3 || c.Existing != 1 || c.Conflicts+c.Skipped+c.Invalid != 0 {
			t.Errorf("tags counted %+v, want 3 added and 1 already there", c)
		}
		wantHere := slices.Sorted(slices.Values(append(slices.Clone(want), mine.Givens.String()+" mine")))
		if got := tagSnapshot(t, dst); !slices.Equal(got, wantHere) {
			t.Errorf("tags after the merge:\n got %q\nwant %q", got, wantHere)
		}
		tagged, err := db.TaggedPuzzles(ctx, dst, "classic", 10)
		if err != nil || len(tagged) != 3 || tagged[0].PuzzleID != mine.ID {
			t.Errorf("puzzles tagged classic %+v (%v), want 3, puzzle %d first", tagged, err, mine.ID)
		}
		again := mergeFiles(t, dst, src.path)[0]
		if c := again.Count(db.MergeTags); c.Added != 0 || c.Existing != 4 {
			t.Errorf("merging again: tags counted %+v, want 4 already there", c)
		}
		if got := tagSnapshot(t, dst); !slices.Equal(got, wantHere) {
			t.Errorf("tags after merging again:\n got %q\nwant %q", got, wantHere)
		}
	})
}

// TestMergeTagsOfLeftOutPuzzles merges a lab whose tagged puzzle is
// invalid, skipping it: its tag is skipped with it, the others arrive.
func TestMergeTagsOfLeftOutPuzzles(t *testing.T) {
	src := newMergeLab(t)
	spoil(t, src.path, []string{`UPDATE puzzles SET givens = 3 WHERE id = 5`})
	dst := openTemp(t)
	rep, err := db.Merge(context.Background(), dst, mergeOpenRead(t, src.path), db.MergeOptions{SkipInvalid: true})
	if err != nil {
		t.Fatal(err)
	}
	if c := rep.Count(db.MergeTags); c.Added != 3 || c.Skipped != 1 {
		t.Errorf("tags counted %+v, want 3 added and the tag of the invalid puzzle skipped", c)
	}
	if n := countOf(t, dst, `SELECT COUNT(*) FROM puzzle_tags WHERE tag = 'hard'`); n != 0 {
		t.Errorf("%d puzzles tagged hard, want none", n)
	}
}

// TestMergeOlderSource merges a lab at the schema version before tags
// (8): it is refused, as every source at an older version is, with the
// command that migrates it, and nothing is written; migrated, it merges.
func TestMergeOlderSource(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	grid := paperdata.MustGet("sato-no1").Puzzle
	{
		sqlDB, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		p, err := goose.NewProvider(goose.DialectSQLite3, sqlDB, migrations.FS, goose.WithDisableGlobalRegistry(true))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.UpTo(ctx, 8); err != nil {
			t.Fatal(err)
		}
		if _, err := sqlDB.ExecContext(ctx, `INSERT INTO puzzles (grid, size, box_rows, box_cols, givens) VALUES (?, 9, 3, 3, ?)`,
			grid.String(), grid.Givens()); err != nil {
			t.Fatal(err)
		}
		sqlDB.Close()
	}
	forEachBackend(t, func(t *testing.T, b backend) {
		dst := b.open(t)
		before := tableCounts(t, dst)
		_, err := db.Merge(ctx, dst, mergeOpenRead(t, path), db.MergeOptions{})
		wantCode(t, err, sudokulab.ECONFLICT)
		if err == nil || !strings.Contains(err.Error(), "schema version 8, older than") || !strings.Contains(err.Error(), "migrate up") {
			t.Errorf("merge of an old source: %v, want it refused with the command that migrates it", err)
		}
		if got := tableCounts(t, dst); fmt.Sprint(got) != fmt.Sprint(before) {
			t.Errorf("the refused merge wrote: row counts %v, before %v", got, before)
		}
	})
	// The subtests above run once this function returned: migrate a copy.
	copied := filepath.Join(t.TempDir(), "migrated.db")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copied, data, 0o644); err != nil {
		t.Fatal(err)
	}
	migrated := mergeOpen(t, copied) // opening for writing migrates
	if _, err := migrated.Tag(ctx, "old", []int64{1}); err != nil {
		t.Fatal(err)
	}
	migrated.Close()
	dst := openTemp(t)
	mergeFiles(t, dst, copied)
	if got, want := tagSnapshot(t, dst), []string{grid.String() + " old"}; !slices.Equal(got, want) {
		t.Errorf("tags of the migrated source %q, want %q", got, want)
	}
}

// TestMergeTagsOfLoadingImport merges a lab whose import is still loading
// and gave a tag: the tag is skipped, as that import's other rows are.
func TestMergeTagsOfLoadingImport(t *testing.T) {
	src := newMergeLab(t)
	spoil(t, src.path, []string{`UPDATE puzzle_tags SET import_id = 1 WHERE puzzle_id = 5`, `UPDATE imports SET state = 'loading'`})
	dst := openTemp(t)
	rep := mergeFiles(t, dst, src.path)[0]
	if c := rep.Count(db.MergeTags); c.Added != 3 || c.Skipped != 1 {
		t.Errorf("tags counted %+v, want 3 added and the loading import's tag skipped", c)
	}
	if n := countOf(t, dst, `SELECT COUNT(*) FROM puzzle_tags WHERE tag = 'hard'`); n != 0 {
		t.Errorf("%d puzzles tagged hard, want none", n)
	}
}
