package raters_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/internal/tdoku"
	"sudokulab/raters"
)

// agreementEnv names the environment variable that turns on
// TestHumanAgreement, a measurement of several minutes left out of the
// default test run. Its value is the number of puzzles read from the forum
// hardest list ("all" for the whole list of 48,766); top1465 is always
// read whole:
//
//	SUDOKULAB_AGREEMENT=300 go test -run TestHumanAgreement -v -timeout 1h ./raters/
const agreementEnv = "SUDOKULAB_AGREEMENT"

// TestHumanAgreement measures how the human rater's value agrees with the
// backtrack rater's on two tdoku lists: the Spearman rank correlation of
// the two values, the share of puzzles rated "beyond", the puzzles and the
// value range per level, and the human rater's time per puzzle. It
// checks that the value orders the levels (every puzzle of a higher level
// has a higher value), that the correlation is positive, and that beyond
// is below 25 % of top1465.
func TestHumanAgreement(t *testing.T) {
	arg := os.Getenv(agreementEnv)
	if arg == "" {
		t.Skipf("a measurement of minutes: set %s=N (puzzles of the forum hardest list, or all) to run it", agreementEnv)
	}
	hardest := math.MaxInt
	if arg != "all" {
		n, err := strconv.Atoi(arg)
		if err != nil || n < 1 {
			t.Fatalf("%s=%q: want a number of puzzles or all", agreementEnv, arg)
		}
		hardest = n
	}
	lists := []struct {
		list        tdoku.List
		n           int
		maxBeyond   float64 // the largest share of beyond allowed
		positiveRho bool
	}{
		{tdoku.Top1465, math.MaxInt, 0.25, true},
		{tdoku.Hardest1905, hardest, 1, true},
		{tdoku.Hardest1106, math.MaxInt, 1, true},
	}
	human := newRater(t, "human", nil)
	backtrack := newRater(t, "backtrack", nil)
	for _, l := range lists {
		puzzles := tdokuFull(t, l.list, l.n)
		rated := rateAll(t, puzzles, human, backtrack)
		var hv, bv []float64
		var humanTime time.Duration
		levels := map[string]*levelStat{}
		for _, r := range rated {
			hv = append(hv, *r.human.Value)
			bv = append(bv, *r.backtrack.Value)
			humanTime += r.took
			s := levels[r.human.Label]
			if s == nil {
				s = &levelStat{min: math.Inf(1), max: math.Inf(-1)}
				levels[r.human.Label] = s
			}
			s.add(*r.human.Value, *r.backtrack.Value)
		}
		if dir := os.Getenv(agreementEnv + "_DUMP"); dir != "" {
			dumpRatings(t, filepath.Join(dir, l.list.File+".tsv"), rated)
		}
		rho := spearman(hv, bv)
		beyond := 0.0
		if s := levels["beyond"]; s != nil {
			beyond = float64(s.n) / float64(len(rated))
		}
		t.Logf("%s: %d puzzles; Spearman(human, backtrack) = %.3f; beyond %.1f %%; human %.2f ms/puzzle (%d workers)",
			l.list.File, len(rated), rho, 100*beyond, float64(humanTime.Microseconds())/1000/float64(len(rated)), workers())
		prevMax := math.Inf(-1)
		for _, name := range []string{"easy", "medium", "hard", "unfair", "extreme", "beyond"} {
			s := levels[name]
			if s == nil {
				continue
			}
			t.Logf("  %-8s %5d puzzles  value %8.1f .. %8.1f (mean %8.1f)  mean backtrack guesses %7.1f",
				name, s.n, s.min, s.max, s.sum/float64(s.n), s.guesses/float64(s.n))
			if s.min <= prevMax {
				t.Errorf("%s: level %s has a value %v not above the level below (max %v)", l.list.File, name, s.min, prevMax)
			}
			prevMax = s.max
		}
		if l.positiveRho && !(rho > 0) {
			t.Errorf("%s: Spearman %.3f, want > 0", l.list.File, rho)
		}
		if beyond >= l.maxBeyond && l.maxBeyond < 1 {
			t.Errorf("%s: beyond %.1f %%, want below %.0f %%", l.list.File, 100*beyond, 100*l.maxBeyond)
		}
	}
}

// dumpRatings writes one line per puzzle: the human value, label and
// details, and the backtrack value, tab-separated.
func dumpRatings(t *testing.T, path string, rated []ratedPuzzle) {
	var b strings.Builder
	b.WriteString("human\tlabel\tbacktrack\tdetails\n")
	for _, r := range rated {
		fmt.Fprintf(&b, "%v\t%s\t%v\t%s\n", *r.human.Value, r.human.Label, *r.backtrack.Value, r.human.Details)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// levelStat accumulates the human values and backtrack guesses of one
// level.
type levelStat struct {
	n             int
	sum, min, max float64
	guesses       float64
}

func (s *levelStat) add(v, guesses float64) {
	s.n++
	s.sum += v
	s.min = min(s.min, v)
	s.max = max(s.max, v)
	s.guesses += guesses
}

// ratedPuzzle is one puzzle's human and backtrack ratings, with the time
// the human rating took.
type ratedPuzzle struct {
	human, backtrack sudokulab.Rating
	took             time.Duration
}

func workers() int { return max(1, min(2, runtime.GOMAXPROCS(0))) }

// rateAll rates puzzles by both raters on workers() goroutines.
func rateAll(t *testing.T, puzzles []sudokulab.Grid, human, backtrack raters.Rater) []ratedPuzzle {
	out := make([]ratedPuzzle, len(puzzles))
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	next := 0
	for range workers() {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(puzzles) {
					return
				}
				start := time.Now()
				h, err := human.Rate(context.Background(), puzzles[i])
				took := time.Since(start)
				var b sudokulab.Rating
				if err == nil {
					b, err = backtrack.Rate(context.Background(), puzzles[i])
				}
				if err != nil {
					mu.Lock()
					firstErr = cmp.Or(firstErr, err)
					mu.Unlock()
					return
				}
				out[i] = ratedPuzzle{h, b, took}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		t.Fatal(firstErr)
	}
	for i, r := range out {
		var d map[string]any
		if err := json.Unmarshal([]byte(r.human.Details), &d); err != nil || r.human.Value == nil || r.backtrack.Value == nil {
			t.Fatalf("puzzle %d: ratings %+v, %+v", i, r.human, r.backtrack)
		}
	}
	return out
}

// spearman returns the Spearman rank correlation of x and y: the Pearson
// correlation of their ranks, ties given their mean rank.
func spearman(x, y []float64) float64 {
	return pearson(ranks(x), ranks(y))
}

// ranks returns the rank (1-based) of each value of v, tied values the
// mean of their ranks.
func ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
	r := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && v[idx[j]] == v[idx[i]] {
			j++
		}
		mean := float64(i+j+1) / 2 // ranks i+1 .. j
		for k := i; k < j; k++ {
			r[idx[k]] = mean
		}
		i = j
	}
	return r
}

func pearson(x, y []float64) float64 {
	n := float64(len(x))
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx, my = mx/n, my/n
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}

func TestSpearman(t *testing.T) {
	tests := []struct {
		name string
		x, y []float64
		want float64
	}{
		{"same order", []float64{1, 2, 3, 4}, []float64{10, 20, 30, 400}, 1},
		{"reversed", []float64{1, 2, 3, 4}, []float64{4, 3, 2, 1}, -1},
		// Ranks of x: 1.5 1.5 3 4; of y: 1 2 3 4.
		{"ties", []float64{5, 5, 6, 7}, []float64{1, 2, 3, 4}, 0.9486832980505138},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := spearman(tt.x, tt.y); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("spearman = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestHumanBeyondOrdersByWork rates a sample of tdoku's forum-hardest 1905
// list (every 800th puzzle; the whole list is beyond the human techniques)
// with the human and backtrack raters: the human value of a beyond puzzle
// must rank them as the backtrack rater's guesses do (version 2, which
// ranked them by the empty cells left, had Spearman -0.17 on the whole
// list), and its details must say how many guesses were left.
func TestHumanBeyondOrdersByWork(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "forum-hardest-1905-sample.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var puzzles []sudokulab.Grid
	for _, line := range strings.Fields(string(data)) {
		g, err := sudokulab.Parse(line[:81])
		if err != nil {
			t.Fatal(err)
		}
		puzzles = append(puzzles, g)
	}
	rated := rateAll(t, puzzles, newRater(t, "human", nil), newRater(t, "backtrack", nil))
	var hv, bv []float64
	for i, r := range rated {
		d := details(t, r.human)
		if r.human.Label == "beyond" {
			g, ok := d["guesses_after_stall"].(float64)
			if !ok || d["solutions"] != float64(1) {
				t.Errorf("puzzle %d: beyond without guesses_after_stall or with solutions %v: %s", i, d["solutions"], r.human.Details)
			}
			if want := raters.HumanValue(raters.Beyond, int(d["score"].(float64)), g); *r.human.Value != want {
				t.Errorf("puzzle %d: value %v, want %v", i, *r.human.Value, want)
			}
		}
		hv = append(hv, *r.human.Value)
		bv = append(bv, *r.backtrack.Value)
	}
	if rho := spearman(hv, bv); rho < 0.5 {
		t.Errorf("Spearman(human, backtrack) = %.3f on %d forum-hardest puzzles, want >= 0.5", rho, len(rated))
	} else {
		t.Logf("Spearman(human, backtrack) = %.3f on %d forum-hardest puzzles", rho, len(rated))
	}
}
