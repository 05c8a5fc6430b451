package runexport_test

import (
	"bytes"
	"encoding/csv"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sudokulab/runexport"
)

// TestCSVLoads reads the table back as pandas or R would: a header naming
// the documented columns, then one row per trajectory point, and one row
// of final values for each run without points.
func TestCSVLoads(t *testing.T) {
	runs := fixture()
	var b bytes.Buffer
	w := runexport.NewCSV(&b)
	write(t, w, runs)
	r := csv.NewReader(&b)
	records, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(records[0], runexport.CSVColumns) {
		t.Fatalf("header %q, want %q", records[0], runexport.CSVColumns)
	}
	col := map[string]int{}
	for i, c := range records[0] {
		col[c] = i
	}
	rows := records[1:]
	want := 0
	for _, fr := range runs {
		want += max(len(fr.points), 1)
	}
	if len(rows) != want {
		t.Fatalf("%d rows, want %d", len(rows), want)
	}
	if s := w.Summary(); s.Runs != int64(len(runs)) || s.Rows != int64(want) || s.Skipped != 0 {
		t.Errorf("summary %+v: want %d runs and %d rows", s, len(runs), want)
	}
	i := 0
	for _, fr := range runs {
		r := fr.run
		if len(fr.points) == 0 {
			row := rows[i]
			i++
			if row[col["seq"]] != "" || row[col["evaluations"]] != row[col["final_evaluations"]] ||
				row[col["generation"]] != row[col["final_generations"]] || row[col["best_cost"]] != row[col["final_best_cost"]] ||
				row[col["seconds"]] != row[col["wall_seconds"]] || row[col["current_cost"]] != "" {
				t.Errorf("run %d without points: row %q, want its final values and an empty seq", r.Run.ID, row)
			}
			continue
		}
		for j, p := range fr.points {
			row := rows[i]
			i++
			if row[col["run_id"]] != i64(r.Run.ID) || row[col["config"]] != r.Config || row[col["seq"]] != i64(int64(j)) ||
				row[col["evaluations"]] != i64(p.Evaluations) || row[col["best_cost"]] != i64(int64(p.BestCost)) {
				t.Errorf("run %d point %d: row %q", r.Run.ID, j, row)
			}
		}
	}
	// NULL is an empty field; text with commas, quotes and newlines
	// survives.
	byID := map[string][]string{}
	for _, row := range rows {
		byID[row[col["run_id"]]] = row
	}
	if row := byID["4"]; row[col["cpu_seconds"]] != "" || row[col["wall_seconds"]] != "" || row[col["puzzle_label"]] != "" {
		t.Errorf("run 4: NULL cpu_seconds, wall_seconds and no label give %q, %q, %q", row[col["cpu_seconds"]], row[col["wall_seconds"]], row[col["puzzle_label"]])
	}
	if row := byID["5"]; row[col["error"]] != runs[4].run.Run.Error || row[col["final_best_cost"]] != "" || row[col["solved"]] != "0" {
		t.Errorf("run 5: error %q best %q solved %q", row[col["error"]], row[col["final_best_cost"]], row[col["solved"]])
	}
	if row := byID["7"]; row[col["config"]] != runs[6].run.Config || row[col["effort"]] != "" || row[col["effort_unit"]] != "nodes" {
		t.Errorf("run 7: config %q effort %q unit %q", row[col["config"]], row[col["effort"]], row[col["effort_unit"]])
	}
	if row := byID["1"]; row[col["solved"]] != "1" || row[col["started_at"]] != "2025-03-14T09:26:54.589Z" || row[col["free_cells"]] != "51" {
		t.Errorf("run 1: solved %q started_at %q free_cells %q", row[col["solved"]], row[col["started_at"]], row[col["free_cells"]])
	}
}

// TestCSVEmpty checks that a table without runs is its header.
func TestCSVEmpty(t *testing.T) {
	var b bytes.Buffer
	if err := runexport.NewCSV(&b).Close(); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), strings.Join(runexport.CSVColumns, ",")+"\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestColumnsDocumented checks that docs/export-runs.md describes every CSV
// column and every .dat column.
func TestColumnsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/export-runs.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range append(slices.Clone(runexport.CSVColumns), runexport.IOHColumns...) {
		if !bytes.Contains(doc, []byte("| `"+c+"`")) {
			t.Errorf("docs/export-runs.md has no table row for the column %q", c)
		}
	}
}

func i64(n int64) string { return strconv.FormatInt(n, 10) }
