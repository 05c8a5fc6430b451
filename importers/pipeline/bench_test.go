package pipeline_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/importers/pipeline"
	"sudokulab/internal/tdoku"
	"sudokulab/symmetry"
)

// seedPuzzles reads the puzzles of the tdoku lists of typical difficulty
// from the shared data folder: Royle's 17-clue puzzles and magictour's top
// 1465 (the exact solver takes 10-60 us on them; the forum's hardest
// lists, at 200-400 us a puzzle, are not typical of a collection and are
// left out).
func seedPuzzles(tb testing.TB) []sudokulab.Grid {
	var out []sudokulab.Grid
	for _, l := range []tdoku.List{tdoku.Clue17, tdoku.Top1465} {
		list, err := tdoku.Full(l)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, list...)
	}
	return out
}

// writeBenchFile writes n distinct puzzles, random symmetry
// transformations of the tdoku lists' puzzles, one per line (csv: a
// Kaggle-style quizzes,solutions file without solutions).
func writeBenchFile(tb testing.TB, path string, n int, csv bool) {
	seeds := seedPuzzles(tb)
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if csv {
		fmt.Fprintln(w, "id,puzzle,rating")
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range n {
		g := seeds[i%len(seeds)]
		if i >= len(seeds) {
			g = symmetry.Random(rng).Apply(g)
		}
		s := []byte(g.String())
		for j, c := range s {
			if c == '.' {
				s[j] = '0'
			}
		}
		if csv {
			fmt.Fprintf(w, "%d,%s,%d\n", i+1, s, i%7)
		} else {
			w.Write(s)
			w.WriteByte('\n')
		}
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	f.Close()
}

// benchLines is the size of the benchmark file: $SUDOKULAB_BENCH_LINES,
// 1,000,000 by default.
func benchLines() int {
	if n, err := strconv.Atoi(os.Getenv("SUDOKULAB_BENCH_LINES")); err == nil && n > 0 {
		return n
	}
	return 1_000_000
}

// BenchmarkImport imports a generated file of distinct puzzles (a million
// lines unless $SUDOKULAB_BENCH_LINES says otherwise) into a new database,
// with solution counting and symmetry forms, and reports the time and the
// peak heap.
func BenchmarkImport(b *testing.B) {
	for _, kind := range []string{"line", "csv"} {
		b.Run(kind, func(b *testing.B) {
			n := benchLines()
			dir := b.TempDir()
			path := filepath.Join(dir, "bench.txt")
			if kind == "csv" {
				path = filepath.Join(dir, "bench.csv")
			}
			writeBenchFile(b, path, n, kind == "csv")
			b.ResetTimer()
			for i := range b.N {
				b.StopTimer()
				d, err := db.Open(context.Background(), filepath.Join(dir, fmt.Sprintf("lab%d.db", i)))
				if err != nil {
					b.Fatal(err)
				}
				// The sampler hands its peak over on a channel when told to
				// stop, so the benchmark reads it only once the sampler is done.
				done, peakc := make(chan struct{}), make(chan uint64)
				go func() {
					var ms runtime.MemStats
					peak := uint64(0)
					tick := time.NewTicker(50 * time.Millisecond)
					defer tick.Stop()
					for {
						runtime.ReadMemStats(&ms)
						peak = max(peak, ms.HeapInuse)
						select {
						case <-done:
							peakc <- peak
							return
						case <-tick.C:
						}
					}
				}()
				b.StartTimer()
				res, err := pipeline.ImportFile(context.Background(), d, path, pipeline.Options{})
				b.StopTimer()
				close(done)
				peak := <-peakc
				if err != nil {
					b.Fatal(err)
				}
				if res.Import.PuzzlesNew != n {
					b.Fatalf("%d new puzzles, want %d", res.Import.PuzzlesNew, n)
				}
				b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
				b.ReportMetric(float64(n)/res.Elapsed.Seconds(), "puzzles/s")
				d.Close()
				b.StartTimer()
			}
		})
	}
}

// TestWriteBenchFile writes the benchmark's file to $SUDOKULAB_BENCH_FILE
// for timing the command line; it is skipped when that is unset.
func TestWriteBenchFile(t *testing.T) {
	path := os.Getenv("SUDOKULAB_BENCH_FILE")
	if path == "" {
		t.Skip("set SUDOKULAB_BENCH_FILE (and SUDOKULAB_BENCH_LINES) to write a benchmark file")
	}
	writeBenchFile(t, path, benchLines(), strings.HasSuffix(path, ".csv"))
}
