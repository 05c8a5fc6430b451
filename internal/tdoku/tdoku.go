// Package tdoku holds the puzzle lists of the tdoku benchmark suite
// (github.com/t-dillon/tdoku) for tests and benchmarks: a sample of each
// list, committed under testdata/ and embedded, which every `go test` run
// checks against, and a reader of the full lists in the shared data folder
// (see internal/shareddata), which benchmarks and the long runs behind
// environment variables use. testdata/README.md says where the puzzles
// come from and under what terms.
package tdoku

import (
	"bufio"
	"embed"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"sudokulab"
	"sudokulab/internal/shareddata"
)

// List is one of the benchmark lists; every puzzle on it has one solution.
type List struct {
	// Name is the short name tests and benchmarks report, such as "17clue".
	Name string
	// File is the list's file name, in the shared folder's data/tdoku and
	// in testdata/.
	File string
}

// The lists, in tdoku's order.
var (
	Clue17      = List{"17clue", "puzzles2_17_clue.txt"}
	Top1465     = List{"top1465", "puzzles3_magictour_top1465.txt"}
	Hardest1905 = List{"hardest1905_11+", "puzzles5_forum_hardest_1905_11+.txt"}
	Hardest1106 = List{"hardest1106", "puzzles6_forum_hardest_1106.txt"}
)

// Lists are all the lists, in tdoku's order.
var Lists = []List{Clue17, Top1465, Hardest1905, Hardest1106}

// SampleSize is the number of puzzles of each list's sample: evenly spaced
// over the list, the first puzzle included; a shorter list is its own
// sample.
const SampleSize = 500

//go:embed testdata/*.txt
var samples embed.FS

var (
	sampleOnce sync.Once
	sampleMap  map[string][]sudokulab.Grid
	sampleErr  error
)

// Sample returns the committed sample of l, in list order. It panics if
// the embedded file is malformed, which this package's tests rule out.
func Sample(l List) []sudokulab.Grid {
	sampleOnce.Do(func() {
		sampleMap = map[string][]sudokulab.Grid{}
		for _, list := range Lists {
			f, err := samples.Open("testdata/" + list.File)
			if err != nil {
				sampleErr = err
				return
			}
			g, err := Read(f, "testdata/"+list.File)
			f.Close()
			if err != nil {
				sampleErr = err
				return
			}
			sampleMap[list.File] = g
		}
	})
	if sampleErr != nil {
		panic(sampleErr)
	}
	g, ok := sampleMap[l.File]
	if !ok {
		panic("tdoku: no sample of " + l.File)
	}
	return g
}

// Full reads the whole of l from the shared data folder; the error names
// the file when it is missing.
func Full(l List) ([]sudokulab.Grid, error) {
	path, err := shareddata.Path("data/tdoku/" + l.File)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read reads a list in tdoku's format: one puzzle a line, '.' or '0' for a
// blank, anything after the first field ignored, '#' comment lines, blank
// lines and carriage returns skipped. name is the file named in errors.
func Read(r io.Reader, name string) ([]sudokulab.Grid, error) {
	var out []sudokulab.Grid
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		g, err := sudokulab.Parse(fields[0])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		out = append(out, g)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// Spread returns n puzzles of list evenly spaced over it, the first
// included (all of them when it has no more than n): the rule the samples
// are drawn by, and a way to take a smaller sample of a sample.
func Spread(list []sudokulab.Grid, n int) []sudokulab.Grid {
	if len(list) <= n {
		return list
	}
	out := make([]sudokulab.Grid, n)
	for i := range out {
		out[i] = list[i*len(list)/n]
	}
	return out
}
