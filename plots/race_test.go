package plots_test

import (
	"bytes"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"sudokulab/plots"
)

// TestRace draws a small race: two iterations, candidate 2 eliminated,
// candidate 1 the elite; the note counts them.
func TestRace(t *testing.T) {
	var entries []plots.RaceEntry
	for step := 1; step <= 3; step++ {
		for c := 1; c <= 3; c++ {
			entries = append(entries, plots.RaceEntry{Iteration: 1, Step: step, Candidate: c, Alive: !(c == 2 && step == 3)})
		}
	}
	entries = append(entries, plots.RaceEntry{Iteration: 2, Step: 1, Candidate: 1, Alive: true}, plots.RaceEntry{Iteration: 2, Step: 1, Candidate: 4, Alive: true})
	f, err := plots.Race(plots.RaceData{Entries: entries, Elites: []int{1}}, plots.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := f.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	for _, want := range []string{"Iterated race", "4 candidates, 4 steps, 1 eliminations", "iteration 2", "final elite", "eliminated"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the picture lacks %q", want)
		}
	}
	if _, err := plots.Race(plots.RaceData{}, plots.Options{}); err == nil {
		t.Error("an empty race drew")
	}
}

// iterationName matches a name of an iteration in a race's SVG, with
// where it is written (gonum's SVG writes y negated) and what precedes it.
var iterationName = regexp.MustCompile(`(<g transform="rotate[^"]*">\s*)?<text x="([-0-9.]+)" y="([-0-9.]+)" transform="scale\(1, -1\)"[^>]*>(iteration \d+)</text>`)

// TestRaceIterationNames: the iterations are named level, in one row
// above the data (the candidates' lines end below it), each centred over
// its steps; an iteration too short for "iteration N" is named N.
// (Turned upright along the boundaries, the names crossed the lines of
// the top candidates and ran into each other.)
func TestRaceIterationNames(t *testing.T) {
	draw := func(iterations, steps int) string {
		t.Helper()
		var entries []plots.RaceEntry
		for it := 1; it <= iterations; it++ {
			for step := 1; step <= steps; step++ {
				for c := 1; c <= 3; c++ {
					entries = append(entries, plots.RaceEntry{Iteration: it, Step: step, Candidate: 10*it + c, Alive: true})
				}
			}
		}
		f, err := plots.Race(plots.RaceData{Entries: entries, Elites: []int{10*iterations + 3}}, plots.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := f.WriteSVG(&b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	svg := draw(4, 6)
	names := iterationName.FindAllStringSubmatch(svg, -1)
	if len(names) != 4 {
		t.Fatalf("%d iterations named, want 4", len(names))
	}
	var xs []float64
	for _, m := range names {
		if m[1] != "" {
			t.Errorf("%q is written turned", m[4])
		}
		if m[3] != names[0][3] {
			t.Errorf("%q is written at y %s, %q at %s: not in one row", m[4], m[3], names[0][4], names[0][3])
		}
		x, _ := strconv.ParseFloat(m[2], 64)
		xs = append(xs, x)
	}
	// Centred over equal spans: equally far apart.
	for i := 2; i < len(xs); i++ {
		if d0, d := xs[1]-xs[0], xs[i]-xs[i-1]; math.Abs(d-d0) > 0.01 {
			t.Errorf("names at x %v: not centred over their equal spans", xs)
		}
	}
	// The top candidate (43), the final elite, has its line below the
	// names.
	row, _ := strconv.ParseFloat(names[0][3], 64)
	elites := regexp.MustCompile(`<path d="M([-0-9.]+),([-0-9.]+)L([-0-9.]+),([-0-9.]+)"\s*style="[^"]*stroke:#1F77B4`).FindAllStringSubmatch(svg, -1)
	if len(elites) == 0 {
		t.Fatal("no elite's line found in the picture")
	}
	for _, m := range elites {
		for _, y := range []string{m[2], m[4]} {
			if v, _ := strconv.ParseFloat(y, 64); v > -row-3 {
				t.Errorf("an elite's line at y %s reaches the names' row (%g)", y, -row)
			}
		}
	}
	// Thirty iterations of one step each: numbers only.
	if svg := draw(30, 1); iterationName.MatchString(svg) || !strings.Contains(svg, ">17</text>") {
		t.Error("iterations of one step are named 'iteration N', or not named at all")
	}
}
