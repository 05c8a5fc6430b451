package figures

import (
	"context"

	"sudokulab/db"
	"sudokulab/plots"
)

// SaveRace draws the race of the tuning called name, as recorded
// (candidates against steps, eliminations marked, the final elites in
// colour), into the file path (.svg, .png or .pdf).
func SaveRace(ctx context.Context, d *db.DB, name, path string) error {
	steps, elites, err := db.TuningRace(ctx, d, name)
	if err != nil {
		return err
	}
	entries := make([]plots.RaceEntry, len(steps))
	for i, s := range steps {
		entries[i] = plots.RaceEntry{Iteration: s.Iteration, Step: s.Step, Candidate: s.Candidate, Alive: s.Alive}
	}
	f, err := plots.Race(plots.RaceData{Entries: entries, Elites: elites}, plots.Options{Title: "Iterated race of tuning " + name})
	if err != nil {
		return err
	}
	return f.Save(path)
}
