// Command mkinstances writes puzzles of the large-grid instance classes
// (an n x n grid of box order b with a fraction of its cells given, the
// classes of the large-grid benchmarks) in the benchmark-instance format
// that sudokulab import reads, one file per puzzle, made by
// internal/gridgen from a seed, so that a class can be made again
// anywhere:
//
//	go run ./cmd/mkinstances -order 5 -given 0.45 -count 100 -o inst25
//	sudokulab import inst25/*.instance --collection g25-45 --count-timeout 1s
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"sudokulab/importers"
	"sudokulab/internal/gridgen"
)

func main() {
	order := flag.Int("order", 5, "box order b: 3 (9x9), 4 (16x16), 5 (25x25)")
	given := flag.Float64("given", 0.45, "fraction of the cells given")
	count := flag.Int("count", 100, "puzzles to write")
	seed := flag.Uint64("seed", 1, "seed of the first puzzle; the others follow")
	out := flag.String("o", "instances", "folder to write the files into")
	flag.Parse()
	if err := run(*order, *given, *count, *seed, *out); err != nil {
		fmt.Fprintln(os.Stderr, "mkinstances:", err)
		os.Exit(1)
	}
}

func run(order int, given float64, count int, seed uint64, out string) error {
	if order < 2 || order > 5 || given < 0 || given > 1 || count < 1 {
		return fmt.Errorf("want -order 2..5, -given 0..1 and -count at least 1")
	}
	format, err := importers.Default().Lookup("instance")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	n := order * order
	for i := range count {
		p, _ := gridgen.Shuffled(order, given, seed+uint64(i))
		var b bytes.Buffer
		if err := format.Encode(&b, []importers.Record{{Grid: p}}); err != nil {
			return err
		}
		name := filepath.Join(out, fmt.Sprintf("g%d-%02.0f-%04d.instance", n, 100*given, i+1))
		if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("wrote %d %dx%d puzzles with %.0f%% given to %s\n", count, n, n, 100*given, out)
	return nil
}
