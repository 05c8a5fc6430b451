package runexport_test

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strconv"
	"testing"

	"sudokulab/runexport"
)

// TestRunsCSV reads the per-run table back: the documented header, one
// row per run in order with its parameters, budget, outcome and efforts,
// and seconds at the nanosecond, not at the float's noise.
func TestRunsCSV(t *testing.T) {
	runs := fixture()
	runs[0].run.Params = `{"propagate":"none"}`
	noisy := 13.200000000000017 // 13.2 after a sum of float steps
	runs[1].run.Run.WallSeconds, runs[1].run.Run.CPUSeconds = &noisy, ptr(0.1+0.2)
	var b bytes.Buffer
	w := runexport.NewRunsCSV(&b)
	write(t, w, runs)
	records, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(records[0], runexport.RunsCSVColumns) {
		t.Fatalf("header %q, want %q", records[0], runexport.RunsCSVColumns)
	}
	col := map[string]int{}
	for i, c := range records[0] {
		col[c] = i
	}
	rows := records[1:]
	if len(rows) != len(runs) {
		t.Fatalf("%d rows, want one per run, %d", len(rows), len(runs))
	}
	points := 0
	for i, fr := range runs {
		r, row := fr.run, rows[i]
		points += len(fr.points)
		want := map[string]string{
			"run_id": strconv.FormatInt(r.Run.ID, 10), "config": r.Config, "params": r.Params,
			"seed": strconv.FormatInt(r.Run.Seed, 10), "max_evaluations": "100000", "timeout_ms": "60000",
			"status": string(r.Run.Status), "evaluations": strconv.FormatInt(r.Run.Evaluations, 10),
			"effort_unit": r.EffortUnit, "free_cells": "51",
		}
		for c, v := range want {
			if row[col[c]] != v {
				t.Errorf("run %d: %s %q, want %q", r.Run.ID, c, row[col[c]], v)
			}
		}
	}
	if got := rows[0][col["nodes"]]; got != "12" {
		t.Errorf("exact's nodes %q, want 12", got)
	}
	if got := rows[1][col["wall_seconds"]] + " " + rows[1][col["cpu_seconds"]]; got != "13.2 0.3" {
		t.Errorf("seconds %q, want 13.2 and 0.3", got)
	}
	if s := w.Summary(); s.Runs != int64(len(runs)) || s.Rows != int64(len(runs)) || s.Points != int64(points) {
		t.Errorf("summary %+v", s)
	}
	// No runs: the header alone.
	b.Reset()
	if err := runexport.NewRunsCSV(&b).Close(); err != nil || b.Len() == 0 {
		t.Errorf("no runs: %q, %v", b.String(), err)
	}
}

func TestSeconds(t *testing.T) {
	for _, c := range []struct {
		s    float64
		want string
	}{
		{13.200000000000017, "13.2"}, {0.1 + 0.2, "0.3"}, {3, "3"}, {0, "0"}, {1.5e-5, "0.000015"},
		{0.0000000004, "0"}, {123456.123456789, "123456.123456789"}, {-2.5, "-2.5"},
	} {
		if got := runexport.Seconds(c.s); got != c.want {
			t.Errorf("Seconds(%v) = %q, want %q", c.s, got, c.want)
		}
	}
}

// TestBoth writes one export to two tables: the first's summary is the
// export's.
func TestBoth(t *testing.T) {
	var long, per bytes.Buffer
	w := runexport.Both(runexport.NewCSV(&long), runexport.NewRunsCSV(&per))
	write(t, w, fixture())
	if long.Len() == 0 || per.Len() == 0 {
		t.Fatalf("long %d bytes, per-run %d", long.Len(), per.Len())
	}
	if s := w.Summary(); s.Rows <= s.Runs {
		t.Errorf("summary %+v: want the long table's rows", s)
	}
}
