package main

import (
	"context"
	"encoding/csv"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sudokulab/db"
	"sudokulab/internal/pgtest"
	"sudokulab/runexport"
)

// storedRun is what the database says of a run, for comparison with an
// export.
type storedRun struct {
	id, puzzle, seed, effort, best int64
	config, status, unit           string
	size                           int
	points                         []storedPoint
}

type storedPoint struct {
	generation, evaluations, best int64
}

// storedRuns reads the runs of the database matching the run_results
// predicate where, in export order, with their points.
func storedRuns(t *testing.T, path, where string) []storedRun {
	t.Helper()
	ctx := context.Background()
	d, err := db.OpenOptions(ctx, path, db.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	q := `SELECT r.id, r.config, r.puzzle_id, r.seed, r.status, r.effort_unit, r.size,
		COALESCE(r.effort, CASE WHEN r.effort_unit = 'nodes' THEN r.generations ELSE r.evaluations END), COALESCE(r.best_cost, -1)
		FROM run_results r`
	if where != "" {
		q += " WHERE " + where
	}
	tab, err := d.ReadQuery(ctx, q+" ORDER BY r.config, r.puzzle_id, r.id")
	if err != nil {
		t.Fatal(err)
	}
	index := map[int64]int{}
	var runs []storedRun
	for _, row := range tab.Rows {
		r := storedRun{id: toInt(row[0]), config: row[1].(string), puzzle: toInt(row[2]), seed: toInt(row[3]),
			status: row[4].(string), unit: row[5].(string), size: int(toInt(row[6])), effort: toInt(row[7]), best: toInt(row[8])}
		index[r.id] = len(runs)
		runs = append(runs, r)
	}
	pts, err := d.ReadQuery(ctx, `SELECT run_id, generation, evaluations, best_cost FROM trajectory_points ORDER BY run_id, seq`)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range pts.Rows {
		if i, ok := index[toInt(row[0])]; ok {
			runs[i].points = append(runs[i].points, storedPoint{toInt(row[1]), toInt(row[2]), toInt(row[3])})
		}
	}
	return runs
}

// checkIOHprofiler reads back the IOHprofiler export in dir and checks
// that it holds every run of want (but those that ended in error or were
// canceled) with every trajectory point.
func checkIOHprofiler(t *testing.T, dir string, want []storedRun) {
	t.Helper()
	sets, err := runexport.ReadIOHprofilerDir(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	type key struct{ alg, fid string }
	byKey := map[key]runexport.DataSet{}
	total := 0
	for _, ds := range sets {
		byKey[key{ds.Block.Attrs["algId"], ds.Block.Attrs["funcId"]}] = ds
		total += len(ds.Runs)
		if ds.Block.Attrs["maximization"] != "F" || ds.Block.Attrs["suite"] != runexport.IOHSuite {
			t.Errorf("%s: %v", ds.InfoFile, ds.Block.Attrs)
		}
	}
	next := map[key]int{}
	exported := 0
	for _, r := range want {
		if r.status == "error" || r.status == "canceled" {
			continue
		}
		exported++
		k := key{r.config, strconv.FormatInt(r.puzzle, 10)}
		ds, ok := byKey[k]
		if !ok {
			t.Errorf("run %d: no data set for %s on puzzle %d", r.id, r.config, r.puzzle)
			continue
		}
		i := next[k]
		next[k]++
		if i >= len(ds.Runs) {
			t.Errorf("run %d: %s holds %d runs", r.id, ds.InfoFile, len(ds.Runs))
			continue
		}
		ir := ds.Block.Runs[i]
		if ir.Instance != float64(r.seed) || ir.Runtime != max(r.effort, 1) || ir.Best != float64(r.best) {
			t.Errorf("run %d: %s says %v:%d|%g, want %d:%d|%d", r.id, ds.InfoFile, ir.Instance, ir.Runtime, ir.Best, r.seed, max(r.effort, 1), r.best)
		}
		rows := ds.Runs[i].Rows
		if rows[0][0] != 1 {
			t.Errorf("run %d: the first row is at runtime %g, want 1", r.id, rows[0][0])
		}
		first := r.effort
		if len(r.points) > 0 {
			first = iohRuntime(r, r.points[0])
		}
		if first > 1 {
			// The row added at runtime 1, with the worst cost.
			if rows[0][2] != float64(runexport.WorstCost(r.size)) || !math.IsNaN(rows[0][1]) || !math.IsNaN(rows[0][6]) {
				t.Errorf("run %d starts at %d: first row %v, want the worst cost %d", r.id, first, rows[0], runexport.WorstCost(r.size))
			}
			rows = rows[1:]
		}
		if len(rows) < len(r.points) {
			t.Errorf("run %d: %d rows for %d points", r.id, len(rows), len(r.points))
			continue
		}
		for j, p := range r.points {
			if got := rows[j]; got[0] != float64(iohRuntime(r, p)) || got[2] != float64(p.best) || got[5] != float64(p.generation) {
				t.Errorf("run %d point %d: row %v, want runtime %d, best %d, generation %d", r.id, j, got, iohRuntime(r, p), p.best, p.generation)
			}
		}
		if last := rows[len(rows)-1]; last[0] != float64(ir.Runtime) || last[2] != ir.Best {
			t.Errorf("run %d: last row %v, want runtime %d and best %g", r.id, last, ir.Runtime, ir.Best)
		}
	}
	if total != exported {
		t.Errorf("the export holds %d runs, want %d", total, exported)
	}
}

// iohRuntime is the IOHprofiler runtime of point p of r: its evaluations, or
// its generation (nodes) for the exact solver, at least 1.
func iohRuntime(r storedRun, p storedPoint) int64 {
	if r.unit == "nodes" {
		return max(p.generation, 1)
	}
	return max(p.evaluations, 1)
}

// checkCSV reads the CSV export back and checks that it has the
// documented header and a row per point (one per run without points) of
// every run of want.
func checkCSV(t *testing.T, file string, want []storedRun) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
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
	i := 0
	for _, r := range want {
		n := max(len(r.points), 1)
		if i+n > len(rows) {
			t.Fatalf("%d rows, want more for run %d", len(rows), r.id)
		}
		for j := range n {
			row := rows[i+j]
			if row[col["run_id"]] != strconv.FormatInt(r.id, 10) || row[col["config"]] != r.config {
				t.Fatalf("row %d: run %s of %s, want run %d of %s", i+j+1, row[col["run_id"]], row[col["config"]], r.id, r.config)
			}
			switch {
			case len(r.points) == 0 && row[col["seq"]] != "":
				t.Errorf("run %d without points: seq %q, want empty", r.id, row[col["seq"]])
			case len(r.points) > 0 && (row[col["seq"]] != strconv.Itoa(j) || row[col["best_cost"]] != strconv.FormatInt(r.points[j].best, 10)):
				t.Errorf("run %d point %d: row %q", r.id, j, row)
			}
		}
		i += n
	}
	if i != len(rows) {
		t.Errorf("%d rows, want %d", len(rows), i)
	}
}

// TestExportRunsExample exports every run of lab.db.example in both
// formats and reads them back.
func TestExportRunsExample(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "lab.db")
	if _, errOut, code := run(t, "--db", path, "init", "--from", "../../lab.db.example"); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errOut)
	}
	want := storedRuns(t, path, "")
	if len(want) == 0 {
		t.Fatal("lab.db.example has no runs")
	}
	ioh := filepath.Join(dir, "ioh")
	_, errOut, code := run(t, "--db", path, "export-runs", "--format", "iohprofiler", "-o", ioh)
	if code != 0 {
		t.Fatalf("export-runs: exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "exported "+strconv.Itoa(len(want))+" runs") {
		t.Errorf("export-runs said %q", errOut)
	}
	checkIOHprofiler(t, ioh, want)

	_, errOut, code = run(t, "--db", path, "export-runs", "--format", "csv", "-o", dir)
	if code != 0 {
		t.Fatalf("export-runs csv: exit %d: %s", code, errOut)
	}
	checkCSV(t, filepath.Join(dir, "trajectories.csv"), want)
	checkRunsCSV(t, filepath.Join(dir, "runs.csv"), want)
	// Beside a named file, FILE-runs.csv; with -o - only the long table.
	named := filepath.Join(dir, "named", "all.csv")
	if _, errOut, code := run(t, "--db", path, "export-runs", "--format", "csv", "-o", named); code != 0 {
		t.Fatalf("export-runs csv -o %s: exit %d: %s", named, code, errOut)
	}
	checkRunsCSV(t, filepath.Join(dir, "named", "all-runs.csv"), want)
	out, _, code := run(t, "--db", path, "export-runs", "--format", "csv", "-o", "-")
	if code != 0 || strings.Contains(out, "params") {
		t.Errorf("-o -: exit %d; the per-run table is not written to standard output", code)
	}
}

// checkRunsCSV reads the per-run table in file and checks that it holds
// one row per run of want, in order, with the configuration's parameters.
func checkRunsCSV(t *testing.T, file string, want []storedRun) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(records[0], runexport.RunsCSVColumns) || len(records) != len(want)+1 {
		t.Fatalf("%s: header %q and %d rows, want %q and %d", file, records[0], len(records)-1, runexport.RunsCSVColumns, len(want))
	}
	for i, r := range want {
		row := records[i+1]
		if row[0] != strconv.FormatInt(r.id, 10) || row[2] != r.config || !strings.HasPrefix(row[4], "{") || row[10] != strconv.FormatInt(r.seed, 10) {
			t.Errorf("row %d: %q, want run %d of %s, seed %d, with its parameters", i+1, row, r.id, r.config, r.seed)
		}
	}
}

// TestExportRunsFreshExperiment records a small experiment (one trace of
// improvements only, one without points) and exports parts of it.
func TestExportRunsFreshExperiment(t *testing.T) {
	path := exampleDB(t)
	for _, args := range [][]string{
		{"--config", "franco-tabu-table2", "--max-generations", "300", "--trace", "improve"},
		{"--config", "exact", "--trace", "none"},
		{"--config", "sato-inoue-mutation", "--max-generations", "30"},
	} {
		args = append([]string{"--db", path, "run", "--collection", "reseda-2012", "--runs", "2", "--experiment", "e1"}, args...)
		if _, errOut, code := run(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
	}
	// A run of another experiment, left out by --experiment e1.
	if _, errOut, code := run(t, "--db", path, "run", "--puzzle", "1", "--config", "exact", "--seed", "9", "--experiment", "e2"); code != 0 {
		t.Fatalf("run e2: exit %d: %s", code, errOut)
	}
	all := storedRuns(t, path, "r.experiment = 'e1'")
	if len(all) != 3*4*2 {
		t.Fatalf("recorded %d runs, want 24", len(all))
	}
	tests := []struct {
		name  string
		args  []string
		where string // the runs it selects, over run_results
	}{
		{"experiment", []string{"--experiment", "e1"}, "r.experiment = 'e1'"},
		{"configs", []string{"--experiment", "e1", "--config", "exact", "--config", "sato-inoue-mutation"},
			"r.experiment = 'e1' AND r.config IN ('exact', 'sato-inoue-mutation')"},
		{"puzzles", []string{"--experiment", "e1", "--where", "label = 'ai-escargot' OR givens > 34"},
			"r.experiment = 'e1' AND r.puzzle_id IN (SELECT id FROM puzzle_catalog WHERE label = 'ai-escargot' OR givens > 34)"},
		{"runs", []string{"--runs-where", "status <> 'solved' AND seed = 2"}, "r.status <> 'solved' AND r.seed = 2"},
		{"all", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := storedRuns(t, path, tt.where)
			if len(want) == 0 {
				t.Fatalf("%s selects no runs", tt.where)
			}
			dir := t.TempDir()
			ioh := filepath.Join(dir, "ioh")
			if _, errOut, code := run(t, append([]string{"--db", path, "export-runs", "--format", "iohprofiler", "-o", ioh}, tt.args...)...); code != 0 {
				t.Fatalf("export-runs: exit %d: %s", code, errOut)
			}
			checkIOHprofiler(t, ioh, want)
			out, errOut, code := run(t, append([]string{"--db", path, "export-runs", "--format", "csv", "-o", "-"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("export-runs csv: exit %d: %s", code, errOut)
			}
			file := filepath.Join(dir, "runs.csv")
			if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			checkCSV(t, file, want)
		})
	}
}

func TestExportRunsErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "lab.db")
	if _, errOut, code := run(t, "--db", path, "init", "--from", "../../lab.db.example"); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errOut)
	}
	full := filepath.Join(dir, "full")
	if err := os.MkdirAll(full, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(full, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no format", []string{"-o", out}, 2, "needs --format iohprofiler or --format csv"},
		{"bad format", []string{"--format", "json", "-o", out}, 2, `--format "json": want iohprofiler or csv`},
		{"no output", []string{"--format", "csv"}, 2, "needs -o"},
		{"iohprofiler to stdout", []string{"--format", "iohprofiler", "-o", "-"}, 2, "a folder of files"},
		{"folder not empty", []string{"--format", "iohprofiler", "-o", full}, 2, "the folder is not empty"},
		{"unknown experiment", []string{"--format", "iohprofiler", "-o", out, "--experiment", "nope"}, 3, `no experiment called "nope"`},
		{"unknown config", []string{"--format", "csv", "-o", out, "--config", "nope"}, 3, `no configuration called "nope"`},
		{"no runs", []string{"--format", "csv", "-o", out, "--runs-where", "seed > 1000"}, 3, `no runs match --runs-where "seed > 1000"`},
		{"no runs ioh", []string{"--format", "iohprofiler", "-o", out, "--where", "givens > 80"}, 3, "no runs match"},
		{"two statements", []string{"--format", "csv", "-o", out, "--where", "1; DELETE FROM runs"}, 2, "must be one expression"},
		{"bad column", []string{"--format", "csv", "-o", out, "--runs-where", "nosuchcolumn = 1"}, 2, "nosuchcolumn"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, append([]string{"--db", path, "export-runs"}, tt.args...)...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q: want exit %d and %q", code, errOut, tt.code, tt.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("a failed export left %s behind", out)
				os.RemoveAll(out)
			}
		})
	}
	if got := storedRuns(t, path, ""); len(got) == 0 {
		t.Error("the runs are gone")
	}
}

// TestExportRunsPostgres exports lab.db.example's runs merged into a
// PostgreSQL database: both formats read back whole, and the IOHprofiler
// files are those the SQLite database gives for the same runs.
func TestExportRunsPostgres(t *testing.T) {
	dsn := pgtest.DSN(t)
	dir := t.TempDir()
	lite := filepath.Join(dir, "lab.db")
	if _, errOut, code := run(t, "--db", lite, "init", "--from", "../../lab.db.example"); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errOut)
	}
	if _, errOut, code := run(t, "--db", dsn, "init"); code != 0 {
		t.Fatalf("init PostgreSQL: exit %d: %s", code, errOut)
	}
	// The runs of configurations whose settings differ from the presets
	// are not merged (a conflict): the exports compare what was.
	if _, errOut, code := run(t, "--db", dsn, "merge", lite); code != 0 {
		t.Fatalf("merge into PostgreSQL: exit %d: %s", code, errOut)
	}
	want := storedRuns(t, dsn, "")
	if len(want) == 0 {
		t.Fatal("no runs in PostgreSQL")
	}
	args := []string{"export-runs", "--format", "iohprofiler", "--where", "givens > 20", "--runs-where", "seed >= 1"}
	for _, r := range want {
		if !slices.Contains(args, r.config) {
			args = append(args, "--config", r.config)
		}
	}
	pg, sq := filepath.Join(dir, "pg"), filepath.Join(dir, "sqlite")
	for _, target := range [][2]string{{dsn, pg}, {lite, sq}} {
		if _, errOut, code := run(t, append([]string{"--db", target[0]}, append(args, "-o", target[1])...)...); code != 0 {
			t.Fatalf("export-runs: exit %d: %s", code, errOut)
		}
	}
	checkIOHprofiler(t, pg, want)
	if a, b := fileTree(t, pg), fileTree(t, sq); a != b {
		t.Errorf("the PostgreSQL export differs from the SQLite one:\n%s\n---\n%s", a, b)
	}
	csvFile := filepath.Join(dir, "pg.csv")
	if _, errOut, code := run(t, "--db", dsn, "export-runs", "--format", "csv", "-o", csvFile, "--experiment", "example-samples"); code != 0 {
		t.Fatalf("export-runs csv: exit %d: %s", code, errOut)
	}
	checkCSV(t, csvFile, storedRuns(t, dsn, "r.id IN (SELECT run_id FROM experiment_runs er JOIN experiments e ON e.id = er.experiment_id WHERE e.name = 'example-samples')"))
}

// fileTree returns every file under dir with its content, in path order.
func fileTree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		b.WriteString("== " + rel + "\n" + string(data))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
