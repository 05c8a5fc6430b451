// Command mkinstances writes puzzles of the large-grid instance classes
// (an n x n grid of box order b with a fraction of its cells given, the
// classes of the large-grid benchmarks) in the benchmark-instance format
// that sudokulab import reads, one file per puzzle, deterministically from
// a seed, so that a class can be made again anywhere:
//
//	go run ./cmd/mkinstances -order 5 -given 0.45 -count 100 -o inst25
//	sudokulab import inst25/*.instance --collection g25-45 --count-timeout 1s
//
// Two kinds of solution grid are offered. -solutions pattern (the default,
// kept so that the classes of docs/large-grids.md can be made again) takes
// internal/gridgen's pattern grid with its symbols, rows within bands and
// columns within stacks shuffled, and keeps about the fraction given.
// -solutions random draws each solution grid as sudokulab generate does
// (generator.RandomSolution: a randomized fill, a mixing Markov chain and a
// random transformation; docs/generate.md) and keeps exactly
// round(given x cells) cells chosen uniformly at random: the instance
// classes of Lewis (2007) and Lloyd and Amos (2019), a fraction of the
// cells of random solved grids. scripts/instance-classes.sh makes them
// into collections.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"sudokulab"
	"sudokulab/generator"
	"sudokulab/importers"
	"sudokulab/internal/gridgen"
)

func main() {
	order := flag.Int("order", 5, "box order b: 2 (4x4), 3 (9x9), 4 (16x16), 5 (25x25)")
	given := flag.Float64("given", 0.45, "fraction of the cells given")
	count := flag.Int("count", 100, "puzzles to write")
	seed := flag.Uint64("seed", 1, "seed of the class: puzzle i is made from (seed, i)")
	solutions := flag.String("solutions", "pattern", "solution grids: pattern (shuffled pattern grid) or random (random solved grids, exactly the fraction given)")
	out := flag.String("o", "instances", "folder to write the files into")
	flag.Parse()
	if err := run(*order, *given, *count, *seed, *solutions, *out); err != nil {
		fmt.Fprintln(os.Stderr, "mkinstances:", err)
		os.Exit(1)
	}
}

func run(order int, given float64, count int, seed uint64, solutions, out string) error {
	if order < 2 || order > 5 || given < 0 || given > 1 || count < 1 {
		return fmt.Errorf("want -order 2..5, -given 0..1 and -count at least 1")
	}
	if solutions != "pattern" && solutions != "random" {
		return fmt.Errorf("-solutions %q: want pattern or random", solutions)
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
		var p sudokulab.Grid
		if solutions == "random" {
			p = randomInstance(order, given, seed, uint64(i))
		} else {
			p, _ = gridgen.Shuffled(order, given, seed+uint64(i))
		}
		var b bytes.Buffer
		if err := format.Encode(&b, []importers.Record{{Grid: p}}); err != nil {
			return err
		}
		name := filepath.Join(out, fmt.Sprintf("g%d-%02.0f-%04d.instance", n, 100*given, i+1))
		if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("wrote %d %dx%d puzzles (%s solution grids) with %.0f%% given to %s\n", count, n, n, solutions, 100*given, out)
	return nil
}

// randomInstance returns puzzle i of a class: a random solved grid of box
// order b (drawn by a PCG generator on stream i of seed) with exactly
// round(given x cells) of its cells kept, chosen uniformly by the same
// generator.
func randomInstance(b int, given float64, seed, i uint64) sudokulab.Grid {
	rng := rand.New(rand.NewPCG(seed, 0x1257a9ce^i))
	sol := generator.RandomSolution(sudokulab.Shape{BoxRows: b, BoxCols: b}, rng)
	cells := len(sol.Cells)
	keep := int(math.Round(given * float64(cells)))
	p := sol.Clone()
	for _, c := range rng.Perm(cells)[keep:] {
		p.Cells[c] = 0
	}
	return p
}
