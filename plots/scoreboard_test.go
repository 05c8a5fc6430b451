package plots_test

import (
	"bytes"
	"io"
	"math"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/plots"
)

// scoreColumns are the columns of the query reproduction-scoreboard.
var scoreColumns = []string{"seq", "paper", "paper_table", "puzzle", "variant", "paper_value", "ours", "runs", "config", "status",
	"paper_rate", "our_rate", "our_rate_low", "our_rate_high", "paper_effort", "our_effort", "effort_unit", "configs_run"}

// scoreRows are rows as SQLite and PostgreSQL return them: numbers as
// int64, float64 or text, NULL as nil.
var scoreRows = [][]any{
	{int64(1), "nb-coin", "Table II", "sato-no77", "NB-COIN", "100/100, 2710 generations", "10/10, 3446.9 generations", int64(10), "nb-coin-table2-mean-neighbour", "matched",
		1.0, 1.0, 0.7225, 1.0, int64(2710), 3446.9, "generations", int64(3)},
	{int64(2), "sato-inoue", "Table 1", "sato-no106", "mut+cross+LS", "96/100, 26825 generations", "44/100, 67995.0 generations", int64(100), "sato-inoue-mut-cross-ls", "short",
		"0.9600", "0.4400", "0.3460", "0.5384", "26825", "67995.0000", "generations", int64(1)},
	{int64(3), "reseda", "Table 3", "reseda-hard", "no partial restart", "89/1000, 0.198 seconds", "413/1000, 0.018 seconds", int64(1000), "reseda-table1-both-a0.7", "beaten",
		0.089, 0.413, 0.3828, 0.4439, 0.198, 0.018, "seconds", int64(1)},
	{int64(4), "reseda", "Table 4", "collection kennett-easy", "27 zones", "1000/1000", "", int64(0), nil, "not run",
		1.0, nil, nil, nil, nil, nil, nil, int64(0)},
	{int64(5), "franco", "Tabla 3", "reseda-medium", "GA", "1/1, 4457 generations", "35/100, 19907.0 generations", int64(100), "franco-table3", "short",
		[]byte("1.0000"), []byte("0.3500"), 0.2636, 0.4474, 4457.0, 19907.0, "generations", int64(1)},
	{int64(6), "soto-cuckoo", "Table 2", "reseda-hard", "GA of Mantere and Koljonen, as quoted", "2/30", "", int64(0), nil, "quoted",
		0.0667, nil, nil, nil, nil, nil, nil, int64(0)},
}

func TestScoreCellsFromTable(t *testing.T) {
	cells, err := plots.ScoreCellsFromTable(scoreColumns, scoreRows)
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != len(scoreRows) {
		t.Fatalf("%d cells from %d rows", len(cells), len(scoreRows))
	}
	c := cells[1]
	if c.Paper != "sato-inoue" || c.Status != "short" || c.PaperRate != 0.96 || c.OurLow != 0.346 || c.OurEffort != 67995 || c.EffortUnit != "generations" {
		t.Errorf("row 2 read as %+v", c)
	}
	if c := cells[3]; !math.IsNaN(c.OurRate) || !math.IsNaN(c.PaperEffort) || c.PaperRate != 1 || c.EffortUnit != "" {
		t.Errorf("row 4 (not run) read as %+v", c)
	}
	if c := cells[4]; c.PaperRate != 1 || c.OurRate != 0.35 {
		t.Errorf("row 5 (bytes) read as %+v", c)
	}
	for _, tc := range []struct {
		name    string
		columns []string
		rows    [][]any
		want    string
	}{
		{"a missing column", scoreColumns[:10], nil, "no column paper_rate"},
		{"a short row", scoreColumns, [][]any{scoreRows[0][:5]}, "row 1 has 5 values"},
		{"not a number", scoreColumns, [][]any{append(append([]any{}, scoreRows[0][:10]...), "high", 1.0, 0.5, 1.0, 1.0, 2.0, "generations", int64(1))}, "row 1, column paper_rate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := plots.ScoreCellsFromTable(tc.columns, tc.rows)
			if err == nil || !strings.Contains(err.Error(), tc.want) || sudokulab.ErrorCode(err) != sudokulab.EINVALID {
				t.Errorf("error %v, want EINVALID containing %q", err, tc.want)
			}
		})
	}
}

func TestScoreboard(t *testing.T) {
	cells, err := plots.ScoreCellsFromTable(scoreColumns, scoreRows)
	if err != nil {
		t.Fatal(err)
	}
	f, err := plots.Scoreboard(cells, plots.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"svg", "png"} {
		var buf bytes.Buffer
		if err := f.Write(&buf, format); err != nil {
			t.Fatal(err)
		}
		if buf.Len() < 1000 {
			t.Errorf("%s: %d bytes", format, buf.Len())
		}
		if format == "svg" {
			svg := buf.String()
			for _, want := range []string{"Reproduction scoreboard", "6 published cells: matched 1, beaten 1, short 2, not run 1, quoted 1", "1 efforts in seconds not drawn", "Success rate", "nb-coin"} {
				if !strings.Contains(svg, want) {
					t.Errorf("the SVG does not say %q", want)
				}
			}
		}
	}
	for _, tc := range []struct {
		name  string
		cells []plots.ScoreCell
	}{
		{"no cells", nil},
		{"nothing run", cells[3:4]},
	} {
		if _, err := plots.Scoreboard(tc.cells, plots.Options{}); sudokulab.ErrorCode(err) != sudokulab.ENOTFOUND {
			t.Errorf("%s: error %v, want ENOTFOUND", tc.name, err)
		}
	}
}

// FuzzScoreCellsFromTable checks that any text in the numeric columns is
// read or refused with an error, never a panic, and that what is read
// can be drawn.
func FuzzScoreCellsFromTable(f *testing.F) {
	f.Add("0.96", "0.44", "0.3", "0.5", "26825", "67995", "short")
	f.Add("", "", "", "", "", "", "not run")
	f.Add("1e400", "NaN", "-Inf", "0x1p-2", "0", "-5", "beaten")
	f.Fuzz(func(t *testing.T, pr, or, lo, hi, pe, oe, status string) {
		row := append([]any{}, scoreRows[0]...)
		row[9], row[10], row[11], row[12], row[13], row[14], row[15] = status, pr, or, lo, hi, pe, oe
		cells, err := plots.ScoreCellsFromTable(scoreColumns, [][]any{row, scoreRows[1]})
		if err != nil {
			return
		}
		fig, err := plots.Scoreboard(cells, plots.Options{})
		if err != nil {
			t.Fatalf("Scoreboard: %v", err)
		}
		if err := fig.Write(io.Discard, "svg"); err != nil {
			t.Fatalf("Write: %v", err)
		}
	})
}
