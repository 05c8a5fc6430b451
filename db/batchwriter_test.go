package db_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/db"
)

// addRelabelings stores n puzzles, relabelings of one easy 9x9 puzzle
// (digit d becomes d+k mod 9; n at most 9), and returns their ids.
func addRelabelings(t testing.TB, d *db.DB, n int) []int64 {
	t.Helper()
	const easy = "..867.4.24.23...9.37..2.......4...5.89.251.67.1...3.......9..73.3...52.17.5.329.."
	var ids []int64
	for k := range n {
		g := strings.Map(func(r rune) rune {
			if r == '.' {
				return r
			}
			return '1' + (r-'1'+rune(k))%9
		}, easy)
		id, _, err := db.AddPuzzle(context.Background(), d, &sudokulab.Puzzle{Givens: sudokulab.MustParse(g)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

func rating(id int64, rater string) sudokulab.Rating {
	v := float64(id)
	return sudokulab.Rating{PuzzleID: id, Rater: rater, RaterVersion: "1", Value: &v}
}

// TestBatchWriter writes ratings in transactions of at most Size puzzles
// (the ratings of one puzzle by two raters counting once), each as soon as
// its Size-th puzzle comes; Flush writes what waits, and nothing is
// written twice.
func TestBatchWriter(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		d := b.open(t)
		ids := addRelabelings(t, d, 5)
		var batches [][]int64
		w := db.NewBatchWriter(d, db.UpsertRating, db.BatchOptions[sudokulab.Rating]{
			Size: 2,
			Key:  func(r sudokulab.Rating) int64 { return r.PuzzleID },
			Committed: func(rs []sudokulab.Rating) {
				var b []int64
				for _, r := range rs {
					b = append(b, r.PuzzleID)
				}
				batches = append(batches, b)
			},
		})
		for _, id := range ids {
			for _, rater := range []string{"givens", "human"} {
				if err := w.Add(ctx, rating(id, rater)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := w.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		if err := w.Finish(ctx, nil); err != nil {
			t.Fatal(err)
		}
		want := [][]int64{{ids[0], ids[0], ids[1]}, {ids[1], ids[2]}, {ids[2], ids[3]}, {ids[3], ids[4]}, {ids[4]}}
		if !slices.EqualFunc(batches, want, slices.Equal) {
			t.Errorf("transactions %v, want %v", batches, want)
		}
		if w.Written() != 10 || countOf(t, d, "SELECT count(*) FROM ratings") != 10 {
			t.Errorf("written %d, stored %d; want 10", w.Written(), countOf(t, d, "SELECT count(*) FROM ratings"))
		}
	})
}

// TestBatchWriterFinishAfterCancel adds items after the job's context
// ended: Add only gathers them, and Finish stores them all the same, as
// an interrupted job keeps what it finished.
func TestBatchWriterFinishAfterCancel(t *testing.T) {
	d := openTemp(t)
	ids := addRelabelings(t, d, 3)
	ctx, cancel := context.WithCancel(context.Background())
	w := db.NewBatchWriter(d, db.UpsertRating, db.BatchOptions[sudokulab.Rating]{Size: 1})
	if err := w.Add(ctx, rating(ids[0], "givens")); err != nil {
		t.Fatal(err)
	}
	cancel()
	for _, id := range ids[1:] {
		if err := w.Add(ctx, rating(id, "givens")); err != nil {
			t.Fatalf("Add after the end: %v", err)
		}
	}
	if n := countOf(t, d, "SELECT count(*) FROM ratings"); n != 1 {
		t.Errorf("%d ratings stored before Finish, want 1", n)
	}
	if err := w.Finish(ctx, ctx.Err()); !errors.Is(err, context.Canceled) {
		t.Fatalf("Finish: %v, want the job's error, context.Canceled", err)
	}
	if n := countOf(t, d, "SELECT count(*) FROM ratings"); n != 3 || w.Written() != 3 {
		t.Errorf("%d ratings stored, %d written after Finish, want 3", n, w.Written())
	}
}

// TestBatchWriterFailure writes a batch one item of which fails: none of
// the batch is stored, and the writer stays failed (Finish does not try
// again).
func TestBatchWriterFailure(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	ids := addRelabelings(t, d, 2)
	w := db.NewBatchWriter(d, db.UpsertRating, db.BatchOptions[sudokulab.Rating]{Size: 3})
	for _, r := range []sudokulab.Rating{rating(ids[0], "givens"), rating(ids[1], "givens")} {
		if err := w.Add(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	err := w.Add(ctx, rating(ids[1]+100, "givens"))
	if sudokulab.ErrorCode(err) != sudokulab.ENOTFOUND {
		t.Fatalf("a rating of a missing puzzle: %v, want ENOTFOUND", err)
	}
	if ferr := w.Finish(ctx, nil); !errors.Is(ferr, err) {
		t.Errorf("Finish after the failure: %v, want %v", ferr, err)
	}
	if n := countOf(t, d, "SELECT count(*) FROM ratings"); n != 0 || w.Written() != 0 {
		t.Errorf("%d ratings stored, %d written; want none of the failed batch", n, w.Written())
	}
}

// BenchmarkBatchWriter stores 900 ratings (9 puzzles by 100 raters) per
// operation through a BatchWriter of 200 ratings a transaction, on
// SQLite, as rate does, and reports the ratings stored per second.
func BenchmarkBatchWriter(b *testing.B) {
	ctx := context.Background()
	d := openTemp(b)
	ids := addRelabelings(b, d, 9)
	for b.Loop() {
		w := db.NewBatchWriter(d, db.UpsertRating, db.BatchOptions[sudokulab.Rating]{Size: 200})
		for r := range 100 {
			for _, id := range ids {
				if err := w.Add(ctx, rating(id, fmt.Sprintf("r%d", r))); err != nil {
					b.Fatal(err)
				}
			}
		}
		if err := w.Finish(ctx, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*900)/b.Elapsed().Seconds(), "ratings/s")
}
