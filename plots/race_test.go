package plots_test

import (
	"bytes"
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
