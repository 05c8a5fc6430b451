package main

import (
	"bytes"
	"context"
	"image"
	_ "image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab/db"
	"sudokulab/internal/pgtest"
)

// TestPlot draws every kind of picture from a lab with runs of exact and
// franco-tabu-table2 on the 4 puzzles of reseda-2012 (2 seeds each, also
// in paper-puzzles) and checks each file and what it says.
func TestPlot(t *testing.T) {
	path := labDB(t)
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		want []string // in the SVG
	}{
		{"convergence.png", []string{"plot", "convergence", "--config", "franco-tabu-table2", "--config", "exact"}, nil},
		{"convergence.svg", []string{"plot", "convergence", "--quantiles", "0.1,0.9", "--runs-where", "experiment = 'e1'", "--log-y"},
			[]string{"0.1-0.9 quantile band", "exact (8/8 solved)", "(0/8 solved)", "#1 reseda-easy", ">generations<"}},
		// franco-tabu-table2 alone counts evaluations: its axis stays.
		{"convergence-evaluations.svg", []string{"plot", "convergence", "--axis", "evaluations", "--config", "franco-tabu-table2"},
			[]string{">evaluations<", "franco-tabu-table2 (0/8 solved)"}},
		{"convergence-pooled.svg", []string{"plot", "convergence", "--panels", "none", "--x", "seconds", "--title", "All puzzles"},
			[]string{"All puzzles", "runs on 4 puzzles pooled", "seconds"}},
		{"convergence-axis.svg", []string{"plot", "convergence", "--axis", "generations", "--experiment", "e1"}, []string{"budget 300"}},
		{"ecdf.png", []string{"plot", "ecdf", "--width", "12cm", "--height", "3in"}, nil},
		{"ecdf.pdf", []string{"plot", "ecdf", "--x", "cpu"}, nil},
		{"ecdf.svg", []string{"plot", "ecdf", "--where", "collection = 'paper-puzzles'", "--resamples", "50"},
			[]string{"exact (8/8 solved)", "franco-tabu-table2 (0/8 solved)", "95 % bootstrap band (50 resamples)", ">CPU seconds<",
				"on CPU seconds: exact counts nodes and franco-tabu-table2 evaluations, which do not compare"}},
		{"ecdf-nodes.svg", []string{"plot", "ecdf", "--config", "exact"}, []string{">effort (search nodes)<", "exact (8/8 solved)"}},
		{"ecdf-effort.svg", []string{"plot", "ecdf", "--config", "exact", "--x", "effort"}, []string{">effort (search nodes)<"}},
		{"ecdf-evaluations.svg", []string{"plot", "ecdf", "--config", "franco-tabu-table2", "--x", "effort"}, []string{">effort (evaluations)<"}},
		{"ecdf-generations.svg", []string{"plot", "ecdf", "--axis", "generations", "--config", "exact", "--resamples", "0"},
			[]string{"exact (8/8 solved)", "budget 300"}},
		{"ecdf-time-limit.svg", []string{"plot", "ecdf", "--x", "cpu", "--config", "exact"}, []string{">CPU seconds<"}},
		{"success.png", []string{"plot", "success"}, nil},
		{"success.svg", []string{"plot", "success", "--level", "0.9"}, []string{"human label", "90 % Wilson interval", "easy", "medium"}},
		// A run counts once in each collection, and once in the legend.
		{"success-collections.svg", []string{"plot", "success", "--by", "collection", "--config", "exact"},
			[]string{"reseda-2012", "paper-puzzles", ">8/8<", "exact (8/8 solved)"}},
		{"success-one-collection.svg", []string{"plot", "success", "--by", "collection", "--where", "collection = 'reseda-2012'"},
			[]string{"reseda-2012", ">0/8<"}},
		// Names both views have (givens, id) are puzzle_catalog's.
		{"success-givens.svg", []string{"plot", "success", "--by", "collection", "--where", "givens < 40 AND id > 0"},
			[]string{"reseda-2012", "paper-puzzles"}},
		// No labels by this rater: grouped by collection.
		{"success-nobody.svg", []string{"plot", "success", "--rater", "nobody"}, []string{"collection", "reseda-2012"}},
		{"success-all.svg", []string{"plot", "success", "--by", "all"}, []string{"all runs"}},
		{"ert.svg", []string{"plot", "ert", "--x", "generations"}, []string{"ERT (generations)", "target cost"}},
		{"ert.png", []string{"plot", "ert", "--log-y=false", "--panels", "none"}, nil},
		{"ert-mixed.svg", []string{"plot", "ert", "--panels", "none"}, []string{"ERT (wall-clock seconds)",
			"on wall-clock seconds: exact counts nodes and franco-tabu-table2 evaluations, which do not compare"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, tt.name)
			args := append([]string{"--db", path}, tt.args...)
			_, errOut, code := run(t, append(args, "-o", out)...)
			if code != 0 || !strings.Contains(errOut, "wrote "+out) {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			switch filepath.Ext(out) {
			case ".svg":
				for _, w := range append(tt.want, "<svg") {
					if !strings.Contains(string(b), w) {
						t.Errorf("%s does not say %q", out, w)
					}
				}
				if strings.Contains(string(b), "paper-puzzles") && strings.Contains(tt.name, "one-collection") {
					t.Errorf("%s shows a collection --where left out", out)
				}
			case ".png":
				img, _, err := image.Decode(bytes.NewReader(b))
				if err != nil {
					t.Fatalf("%s: %v", out, err)
				}
				if r := img.Bounds(); r.Dx() < 500 || r.Dy() < 150 {
					t.Errorf("%s: %v, too small", out, r)
				}
				if tt.name == "ecdf.png" {
					// 12 cm x 3 in at 150 dpi.
					if r := img.Bounds(); r.Dx() != 709 || r.Dy() != 450 {
						t.Errorf("%s: %v, want 709 x 450", out, r)
					}
				}
			case ".pdf":
				if !bytes.HasPrefix(b, []byte("%PDF-")) {
					t.Errorf("%s is not a PDF", out)
				}
			}
		})
	}
}

// TestPlotFigure draws a picture into a buffer as SVG, as a command that
// embeds pictures does.
func TestPlotFigure(t *testing.T) {
	path := labDB(t)
	ctx := context.Background()
	d, err := db.OpenOptions(ctx, path, db.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	o := &plotOptions{options: &options{dbPath: path}, ecdfX: "evaluations", resamples: 100, top: 12, experiment: "e1"}
	if err := o.check(plotECDF); err != nil {
		t.Fatal(err)
	}
	fig, err := plotFigure(ctx, d, plotECDF, o)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := fig.WriteSVG(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "<svg") || !strings.Contains(buf.String(), "exact (8/8 solved)") {
		t.Errorf("SVG of %d bytes without the legend", buf.Len())
	}
}

func TestPlotErrors(t *testing.T) {
	path := labDB(t)
	out := filepath.Join(t.TempDir(), "x.png")
	thirteen := []string{"plot", "ecdf", "-o", out}
	for range 13 {
		thirteen = append(thirteen, "--config", "exact")
	}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no output", []string{"plot", "ecdf"}, exitInvalid, "needs -o FILE.svg, FILE.png or FILE.pdf"},
		{"bad extension", []string{"plot", "ecdf", "-o", "x.gif"}, exitInvalid, "-o x.gif: want a .svg, .png or .pdf file"},
		{"bad x", []string{"plot", "convergence", "--x", "cpu", "-o", out}, exitInvalid, `--x "cpu": want generations, evaluations, seconds`},
		{"bad axis", []string{"plot", "ecdf", "--axis", "nodes", "-o", out}, exitInvalid, `--x "nodes"`},
		{"bad quantiles", []string{"plot", "convergence", "--quantiles", "0.9,0.1", "-o", out}, exitInvalid, "--quantiles"},
		{"bad panels", []string{"plot", "ert", "--panels", "grid", "-o", out}, exitInvalid, `--panels "grid"`},
		{"bad by", []string{"plot", "success", "--by", "rater", "-o", out}, exitInvalid, `--by "rater"`},
		{"bad width", []string{"plot", "ecdf", "--width", "16", "--height", "10ft", "-o", out}, exitInvalid, `--height: size "10ft"`},
		{"bad level", []string{"plot", "ecdf", "--level", "95", "-o", out}, exitInvalid, "--level 95"},
		{"bad top", []string{"plot", "ecdf", "--top", "20", "-o", out}, exitInvalid, "--top 20: want 1 to 12"},
		{"too many configs", thirteen, exitInvalid, "13 configurations named with --config: no more than 12"},
		{"no runs", []string{"plot", "ecdf", "--config", "soto-cuckoo", "-o", out}, exitNotFound, "plot: no runs for --config soto-cuckoo"},
		{"no trajectories", []string{"plot", "ert", "--experiment", "nope", "-o", out}, exitNotFound, `plot: no runs with trajectory points for --experiment "nope"`},
		{"runs column in where", []string{"plot", "success", "--where", "experiment = 'e1'", "-o", out}, exitInvalid, "--where filters the puzzle_catalog view"},
		{"bad runs-where", []string{"plot", "ecdf", "--runs-where", "nope = 1", "-o", out}, exitInvalid, "no such column: nope"},
		{"two statements", []string{"plot", "ecdf", "--where", "1; DELETE FROM runs", "-o", out}, exitInvalid, ";"},
		{"no subcommand", []string{"plot"}, exitInvalid, "missing subcommand"},
		// Efforts in nodes and evaluations do not compare, as compare says.
		{"mixed ecdf", []string{"plot", "ecdf", "--x", "evaluations", "-o", out}, exitInvalid,
			"plot --x evaluations: exact counts nodes and franco-tabu-table2 evaluations, which do not compare: use --x cpu or --x seconds"},
		{"mixed effort", []string{"plot", "ecdf", "--x", "effort", "-o", out}, exitInvalid, "which do not compare: use --x cpu or --x seconds"},
		{"mixed ert", []string{"plot", "ert", "--x", "evaluations", "-o", out}, exitInvalid, "which do not compare: use --x seconds"},
		{"mixed convergence", []string{"plot", "convergence", "--x", "evaluations", "-o", out}, exitInvalid, "which do not compare: use --x seconds"},
		{"nodes on evaluations", []string{"plot", "ecdf", "--config", "exact", "--x", "evaluations", "-o", out}, exitInvalid,
			"exact counts its effort in nodes, not evaluations: use --x effort or --x cpu or --x seconds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, append([]string{"--db", path}, tt.args...)...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, tt.code, tt.want)
			}
		})
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed plot left %s behind (%v)", out, err)
	}
}

// TestPlotPostgres draws every kind of picture, with every filter and
// grouping, from a PostgreSQL database.
func TestPlotPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PostgreSQL")
	}
	target := pgtest.DSN(t)
	dir := t.TempDir()
	puzzles := filepath.Join(dir, "paper.txt")
	if err := os.WriteFile(puzzles, []byte(mustPaper(t, "reseda-easy")+"\n"+mustPaper(t, "sato-no1")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := [][]string{
		{"init"},
		{"import", puzzles, "--format", "line", "--collection", "paper"},
		{"collections", "add", "first", "--where", "id = 1"},
		{"run", "--collection", "paper", "--config", "exact", "--config", "franco-tabu-table2", "--runs", "2", "--max-generations", "100", "--experiment", "e1"},
		{"rate", "--rater", "human", "--collection", "paper"},
		{"plot", "convergence", "--where", "collection = 'paper'", "--log-y", "-o", filepath.Join(dir, "c.svg")},
		{"plot", "ecdf", "--runs-where", "experiment = 'e1'", "-o", filepath.Join(dir, "e.svg")},
		{"plot", "success", "-o", filepath.Join(dir, "s.svg")},
		{"plot", "success", "--by", "collection", "--where", "givens > 0", "-o", filepath.Join(dir, "sc.svg")},
		{"plot", "ert", "--experiment", "e1", "--x", "seconds", "-o", filepath.Join(dir, "r.pdf")},
	}
	for _, s := range steps {
		if _, errOut, code := run(t, append([]string{"--db", target}, s...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", s, code, errOut)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "sc.svg"))
	if err != nil {
		t.Fatal(err)
	}
	// Puzzle 1 is in both collections: its 2 runs count in each.
	for _, want := range []string{">first<", ">paper<", ">2/2<", ">4/4<", "exact (4/4 solved)"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("success by collection does not say %q", want)
		}
	}
}
