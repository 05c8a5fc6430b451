package report_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/compare"
	"sudokulab/db"
	"sudokulab/report"
	"sudokulab/solvers"
	"sudokulab/stats"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fixture stores two configurations of known solvers and their runs in a
// new database, and returns it open. alpha (franco-tabu, one parameter
// changed, one the solver does not declare) and beta (soto-cuckoo,
// defaults) ran in experiment e1 on two 4x4 puzzles; effort in
// evaluations, "+" marking a run that did not solve, "!" one that failed:
//
//	alpha  puzzle 1: 10 20 30+   puzzle 2: 5 15
//	beta   puzzle 1: 40+ 50+ 60  puzzle 2: 8 7!
//
// alpha solved 4 of 5 (ERT 80/4 = 20), beta 2 of 4 (ERT 158/2 = 79); a
// run of alpha in experiment e2 is not e1's.
func fixture(t *testing.T) *db.DB {
	t.Helper()
	ctx := context.Background()
	d, err := db.Open(ctx, filepath.Join(t.TempDir(), "lab.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	reg := solvers.Default()
	params := func(solver string, change bool) string {
		info, err := reg.Lookup(solver)
		if err != nil {
			t.Fatal(err)
		}
		set := map[string]string{}
		if change {
			set["tabu-tenure"] = "7"
		}
		p, err := info.Resolve(set)
		if err != nil {
			t.Fatal(err)
		}
		s := p.Canonical()
		if change {
			s = strings.TrimSuffix(s, "}") + `,"zz-legacy":3}`
		}
		return s
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := d.ExecContext(ctx, d.Rebind(q), args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`INSERT INTO puzzles (id, grid, size, box_rows, box_cols, givens) VALUES
		(1, '1...4.....1.....', 4, 2, 2, 3), (2, '12..34..........', 4, 2, 2, 4)`)
	exec(`INSERT INTO collections (id, name) VALUES (1, 'fours')`)
	exec(`INSERT INTO collection_puzzles (collection_id, puzzle_id, position, label) VALUES (1, 1, 1, 'first'), (1, 2, 2, '')`)
	exec(`INSERT INTO configs (name, solver, params, params_hash, description) VALUES (?, 'franco-tabu', ?, 'a', 'tenure 7'), (?, 'soto-cuckoo', ?, 'b', '')`,
		"alpha", params("franco-tabu", true), "beta", params("soto-cuckoo", false))
	exec(`INSERT INTO experiments (id, name, description) VALUES (1, 'e1', 'the <fixture> & more'), (2, 'e2', '')`)
	seed := 0
	add := func(exp int, config string, puzzle int, efforts string) {
		for _, f := range strings.Fields(efforts) {
			status := "solved"
			switch {
			case strings.HasSuffix(f, "+"):
				status = "unsolved"
			case strings.HasSuffix(f, "!"):
				status = "error"
			}
			var n int
			fmt.Sscan(strings.TrimRight(f, "+!"), &n)
			seed++
			exec(`INSERT INTO runs (id, experiment_id, puzzle_id, config_id, seed, status, evaluations, wall_seconds, cpu_seconds, code_version, host, started_at, finished_at)
				VALUES (?, ?, ?, (SELECT id FROM configs WHERE name = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				seed, exp, puzzle, config, seed, status, n, float64(n)/100, float64(n)/200, "v1", "h"+config,
				fmt.Sprintf("2025-01-01T00:00:%02d.000Z", seed), fmt.Sprintf("2025-01-01T00:01:%02d.000Z", seed))
			exec(`INSERT INTO experiment_runs (experiment_id, run_id) VALUES (?, ?)`, exp, seed)
		}
	}
	add(1, "alpha", 1, "10 20 30+")
	add(1, "alpha", 2, "5 15")
	add(1, "beta", 1, "40+ 50+ 60")
	add(1, "beta", 2, "8 7!")
	add(2, "alpha", 2, "999")
	return d
}

func build(t *testing.T, d *db.DB, o report.Options) *report.Report {
	t.Helper()
	o.Solvers = solvers.Default().All()
	o.Now = time.Date(2025, 2, 3, 4, 5, 6, 0, time.UTC)
	o.Generator = "sudokulab test"
	r, err := report.Build(context.Background(), d, o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestBuild(t *testing.T) {
	d := fixture(t)
	r := build(t, d, report.Options{Experiment: "e1"})
	if r.Title != "Experiment e1" || r.Experiment.Description != "the <fixture> & more" {
		t.Errorf("title %q, experiment %+v", r.Title, r.Experiment)
	}
	want := report.Summary{Configs: 2, Puzzles: 2, Runs: 10, Analysed: 9, Solved: 6, Errors: 1,
		FirstRun: "2025-01-01T00:00:01.000Z", LastRun: "2025-01-01T00:01:10.000Z"}
	if r.Summary != want {
		t.Errorf("summary %+v, want %+v", r.Summary, want)
	}
	if r.Unit != "evaluations" || r.TimeUnit != "CPU seconds" {
		t.Errorf("unit %q, time unit %q", r.Unit, r.TimeUnit)
	}
	if len(r.Configs) != 2 {
		t.Fatalf("%d configuration rows", len(r.Configs))
	}
	if r.Ranking != nil {
		t.Errorf("two configurations ranked: %+v; they are compared pair by pair", r.Ranking)
	}
	alpha, beta := r.Configs[0], r.Configs[1]
	if alpha.Config != "alpha" || beta.Config != "beta" {
		t.Fatalf("order %s, %s: want alpha (80 %%) before beta (50 %%)", alpha.Config, beta.Config)
	}
	// Wilson score interval of 4/5 at 95 %: 0.3755 to 0.9638 (Newcombe
	// 1998, Table I's method 3; R: binom::binom.confint(4, 5, methods =
	// "wilson")).
	if alpha.Success.Solved != 4 || alpha.Success.Runs != 5 || !near(alpha.Success.Low, 0.3755, 1e-4) || !near(alpha.Success.High, 0.9638, 1e-4) {
		t.Errorf("alpha success %+v, want 4/5 [0.3755, 0.9638]", alpha.Success)
	}
	if alpha.ERT.Estimate != 20 || beta.ERT.Estimate != 79 || !near(alpha.Time.Estimate, 0.1, 1e-12) || beta.Puzzles != 2 {
		t.Errorf("alpha ERT %v (time %v), beta ERT %v: want 20 (0.1 CPU s) and 79", alpha.ERT, alpha.Time, beta.ERT)
	}
	if !(alpha.ERT.Low <= 20 && alpha.ERT.High >= 20) || math.IsNaN(alpha.ERT.Low) {
		t.Errorf("alpha ERT interval %v does not hold the estimate", alpha.ERT)
	}
	if alpha.MedianEffort != 12.5 || beta.MedianEffort != 34 {
		t.Errorf("medians %v, %v: want 12.5 and 34", alpha.MedianEffort, beta.MedianEffort)
	}
	if r.GroupBy != "puzzle" || len(r.Groups) != 4 || r.Groups[0].Group != "#1 first (4x4, 3 givens)" || r.Groups[2].Group != "#2 (4x4, 4 givens)" {
		t.Errorf("groups by %s: %+v", r.GroupBy, r.Groups)
	}
	c := r.Comparisons
	if c.Mode != "every pair" || len(c.Pairs) != 1 || c.Pairs[0].A != "alpha" || c.Pairs[0].B != "beta" {
		t.Fatalf("comparisons %+v", c)
	}
	// The pair is what compare computes on the same runs.
	res, err := compare.Compute(context.Background(), d, compare.Options{A: "alpha", B: "beta", Experiment: "e1", Seed: 0})
	if err != nil {
		t.Fatal(err)
	}
	got := c.Pairs[0].Result
	if got.Unit != "evaluations" || got.Overall.Fisher != res.Overall.Fisher || got.Overall.LogRank != res.Overall.LogRank ||
		got.Overall.A.ERT != res.Overall.A.ERT || len(got.Puzzles) != 2 {
		t.Errorf("pair overall %+v, compare gives %+v", got.Overall, res.Overall)
	}
	if len(r.Settings) != 2 {
		t.Fatalf("settings %+v", r.Settings)
	}
	a := r.Settings[0]
	if a.Name != "alpha" || a.Paper == "" || a.Counting == "" || a.Description != "tenure 7" {
		t.Errorf("alpha settings %+v", a)
	}
	var changed, legacy bool
	for _, p := range a.Params {
		if p.Name == "tabu-tenure" {
			changed = p.Changed && p.Value == "7" && p.Default == "20" && p.Section != ""
		}
		if p.Name == "zz-legacy" {
			legacy = p.Value == "3" && p.Default == ""
		}
	}
	if !changed || !legacy || a.Params[len(a.Params)-1].Name != "zz-legacy" {
		t.Errorf("alpha params %+v", a.Params)
	}
	for _, p := range r.Settings[1].Params {
		if p.Changed {
			t.Errorf("beta runs on defaults, but %s is marked changed: %+v", p.Name, p)
		}
	}
	pv := r.Provenance
	if pv.Engine != "SQLite" || pv.SchemaVersion != d.LatestVersion() || pv.Runs != 10 || len(pv.CodeVersions) != 1 ||
		pv.CodeVersions[0] != (report.Count{Value: "v1", Runs: 10, FirstRun: "2025-01-01T00:00:01.000Z", LastRun: "2025-01-01T00:01:10.000Z"}) ||
		len(pv.Hosts) != 2 || pv.Hosts[0].Value != "halpha" || pv.Hosts[0].Runs != 5 {
		t.Errorf("provenance %+v", pv)
	}
	if len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "1 runs that were canceled or failed") {
		t.Errorf("notes %q", r.Notes)
	}
	// The same seed gives the same report.
	if again := build(t, d, report.Options{Experiment: "e1"}); again.Configs[0].ERT != alpha.ERT {
		t.Errorf("ERT interval %v, then %v", alpha.ERT, again.Configs[0].ERT)
	}
}

func near(x, want, tol float64) bool { return math.Abs(x-want) <= tol }

// TestBuildPlan holds the report to say, per configuration, how its runs
// were made: seeds, puzzles, stopping rule, how they ended, the command
// that makes them and the code version.
func TestBuildPlan(t *testing.T) {
	d := fixture(t)
	r := build(t, d, report.Options{Experiment: "e1"})
	want := map[string]report.Plan{
		"alpha": {Runs: 5, Puzzles: 2, Seeds: "1-5", SeedCount: 5, Stop: "only at its first solution (best cost 0): no budget was set",
			Ended:        "4 solved, 1 unsolved (budget spent)",
			Commands:     []string{"sudokulab run --experiment e1 --config alpha --collection fours --runs 5   # plans 10 runs, of which the experiment holds 5"},
			CodeVersions: []report.Count{{Value: "v1", Runs: 5}}},
		"beta": {Runs: 5, Puzzles: 2, Seeds: "6-10", SeedCount: 5, Stop: "only at its first solution (best cost 0): no budget was set",
			Ended:        "2 solved, 2 unsolved (budget spent), 1 failed with an error",
			Commands:     []string{"sudokulab run --experiment e1 --config beta --collection fours --seed 6 --runs 5   # plans 10 runs, of which the experiment holds 5"},
			CodeVersions: []report.Count{{Value: "v1", Runs: 5}}},
	}
	if len(r.Settings) != len(want) {
		t.Fatalf("%d configurations described, want %d", len(r.Settings), len(want))
	}
	for _, c := range r.Settings {
		if got := c.Plan; !reflect.DeepEqual(got, want[c.Name]) {
			t.Errorf("%s: plan\n%+v\nwant\n%+v", c.Name, got, want[c.Name])
		}
	}
	// Budgets and seeds that are not one range: a command per budget and
	// range of seeds, the puzzles named by id when they are not a whole
	// collection.
	if _, err := d.ExecContext(context.Background(), `UPDATE runs SET max_evaluations = 500, timeout_ms = 1500 WHERE seed IN (1, 2);
		UPDATE runs SET seed = seed + 10 WHERE id = 5`); err != nil {
		t.Fatal(err)
	}
	r = build(t, d, report.Options{Experiment: "e1"})
	alpha := r.Settings[0].Plan
	if alpha.Seeds != "1-4, 15" || alpha.Stop != "at its first solution (best cost 0), or when it has spent its budget, which differs between runs: none (3 runs); "+
		"500 evaluations or 1.5s of wall-clock time, whichever comes first (2 runs)" {
		t.Errorf("alpha: seeds %q, stop %q", alpha.Seeds, alpha.Stop)
	}
	wantCommands := []string{
		`sudokulab run --experiment e1 --config alpha --collection fours --seed 3 --runs 2   # plans 4 runs, of which the experiment holds 2`,
		`sudokulab run --experiment e1 --config alpha --where "id IN (2)" --seed 15`,
		`sudokulab run --experiment e1 --config alpha --where "id IN (1)" --runs 2 --max-evaluations 500 --timeout 1.5s`,
	}
	if !reflect.DeepEqual(alpha.Commands, wantCommands) {
		t.Errorf("alpha: commands\n%q\nwant\n%q", alpha.Commands, wantCommands)
	}
}

func TestBuildAgainstTheBest(t *testing.T) {
	d := fixture(t)
	r := build(t, d, report.Options{Experiment: "e1", MaxAllPairs: 1, MaxPuzzles: 1})
	c := r.Comparisons
	if c.Mode != "against the best" || c.Best != "alpha" || len(c.Pairs) != 1 || !strings.Contains(c.Why, "compared with the best, alpha") {
		t.Errorf("comparisons %+v", c)
	}
	if r.GroupBy != "collection" || len(r.Groups) != 2 || r.Groups[0].Group != "fours" || !strings.Contains(r.GroupNote, "grouped by collection") {
		t.Errorf("groups by %s (%s): %+v", r.GroupBy, r.GroupNote, r.Groups)
	}
}

func TestBuildErrors(t *testing.T) {
	d := fixture(t)
	ctx := context.Background()
	for _, tt := range []struct {
		name string
		o    report.Options
		code string
		want string
	}{
		{"no name", report.Options{}, sudokulab.EINVALID, "name the experiment"},
		{"unknown", report.Options{Experiment: "nope"}, sudokulab.ENOTFOUND, `no experiment called "nope"`},
		{"bad level", report.Options{Experiment: "e1", Level: 2}, sudokulab.EINVALID, "confidence level 2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := report.Build(ctx, d, tt.o)
			if sudokulab.ErrorCode(err) != tt.code || err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v (%s), want %s %q", err, sudokulab.ErrorCode(err), tt.code, tt.want)
			}
		})
	}
	if _, err := d.ExecContext(ctx, `INSERT INTO experiments (name) VALUES ('empty')`); err != nil {
		t.Fatal(err)
	}
	if _, err := report.Build(ctx, d, report.Options{Experiment: "empty"}); sudokulab.ErrorCode(err) != sudokulab.ENOTFOUND || !strings.Contains(err.Error(), "has no runs yet") {
		t.Errorf("experiment without runs: %v", err)
	}
}

// page returns a Report whose every field is set, for the golden page.
func page(t *testing.T) *report.Report {
	t.Helper()
	svg, err := os.ReadFile(filepath.Join("testdata", "svg", "small.svg"))
	if err != nil {
		t.Fatal(err)
	}
	inline, err := report.InlineSVG(svg)
	if err != nil {
		t.Fatal(err)
	}
	row := func(config, group string, solved, runs int, ert float64) report.SuccessRow {
		return report.SuccessRow{Config: config, Solver: "franco-tabu", Group: group, Puzzles: 2,
			Success: report.Rate{Solved: solved, Runs: runs, Low: 0.2, High: 0.9},
			ERT:     stats.Interval{Estimate: ert, Low: ert / 2, High: math.Inf(1)}, Unit: "evaluations",
			Time: stats.Interval{Estimate: ert / 1e5, Low: ert / 2e5, High: ert / 5e4}, MedianEffort: ert / 3, MedianTime: math.NaN()}
	}
	res := compare.Analyze([]compare.Run{
		{Puzzle: 1, Solved: true, Time: 10}, {Puzzle: 1, Solved: false, Time: 30},
		{B: true, Puzzle: 1, Solved: true, Time: 50}, {B: true, Puzzle: 1, Solved: true, Time: 70},
	}, "evaluations", compare.Options{A: "a<1>", B: "b", Resamples: 50})
	return &report.Report{
		Title:      "Experiment <e1>",
		Experiment: report.Experiment{Name: "<e1>", Description: "what & why", Created: "2025-01-01T00:00:00.000Z"},
		Summary:    report.Summary{Configs: 2, Puzzles: 2, Runs: 9, Analysed: 8, Solved: 6, Errors: 1, Planned: 10, Pending: 1, FirstRun: "2025-01-01", LastRun: "2025-01-02"},
		Unit:       "evaluations", TimeUnit: "CPU seconds", Level: 0.95, Resamples: 1000,
		Configs:     []report.SuccessRow{row("a<1>", "", 4, 5, 20), row("b", "", 2, 4, 1234567)},
		GroupBy:     "puzzle",
		Groups:      []report.SuccessRow{row("a<1>", "#1", 2, 3, 20), row("b", "#1", 1, 2, 79), row("a<1>", "#2", 2, 2, 10)},
		Comparisons: report.Comparisons{Mode: "every pair", Why: "2 configurations: every pair.", Pairs: []report.Pair{{A: "a<1>", B: "b", Result: res}}},
		Figures: []report.Figure{
			{ID: "figure-success", Title: "Success", Caption: "Bars.", SVG: inline},
			{ID: "figure-ecdf", Title: "ECDF", Err: "no runs"},
		},
		Settings: []report.Config{{Name: "a<1>", Solver: "franco-tabu", Preset: true, Summary: "tabu search", Paper: "Franco 2020", Counting: "one move",
			Params: []report.Param{{Name: "tabu-tenure", Value: "7", Default: "20", Range: "0..1e9", Section: "§3", Doc: "tenure", Changed: true}},
			Plan: report.Plan{Runs: 9, Puzzles: 3, Seeds: "1-3", SeedCount: 3, Stop: "at its first solution (best cost 0), or when it has spent 100 evaluations",
				Ended: "3 solved, 6 unsolved (budget spent)", Commands: []string{"sudokulab run --experiment 'e <1>' --config 'a<1>' --collection c --runs 3 --max-evaluations 100"},
				CodeVersions: []report.Count{{Value: "v1", Runs: 9}}}},
			{Name: "b", Solver: "gone"}, {Name: "c", Solver: "gone"}},
		Provenance: report.Provenance{Database: "lab.db", Engine: "SQLite", SchemaVersion: 5,
			CodeVersions: []report.Count{{Value: "v1", Runs: 9, FirstRun: "2025-01-01", LastRun: "2025-01-02"}},
			Hosts:        []report.Count{{Value: "h", Runs: 9}}, Runs: 9, FirstRun: "2025-01-01", LastRun: "2025-01-02",
			Generated: time.Date(2025, 2, 3, 4, 5, 6, 0, time.UTC), Generator: "sudokulab test"},
		Notes: []string{"a note <b>"},
		Ranking: &report.Ranking{
			Summary: "3 configurations ranked by ERT in evaluations on 2 puzzles", Label: "ert_evaluations", Unit: "evaluations",
			Rows: []report.RankRow{
				{Rank: 1, Config: "a<1>", MeanRank: 1, Score: 20, ScoreText: "20", VersusBest: math.NaN(), Verdict: "best"},
				{Rank: 2, Config: "b", MeanRank: 2.5, Score: 1234567, ScoreText: "1 234 567", VersusBest: 0.5, Verdict: "tied with best"},
				{Rank: 3, Config: "c", MeanRank: 2.5, Score: math.Inf(1), ScoreText: "∞", VersusBest: 0.0012, Verdict: "worse than a<1>"},
			},
			Figures: []report.Figure{
				{ID: "figure-cd", Title: "Critical-difference diagram", Caption: "Ranks.", SVG: inline},
				{ID: "figure-aggecdf", Title: "Aggregated runtime ECDF", Err: "no trajectory points"},
			},
		},
	}
}

func TestRenderGolden(t *testing.T) {
	var b bytes.Buffer
	if err := report.Render(&b, page(t)); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	path := filepath.Join("testdata", "golden.html")
	if *update {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if got != string(want) {
		w := string(want)
		i := 0
		for i < min(len(got), len(w)) && got[i] == w[i] {
			i++
		}
		t.Errorf("the page differs from %s (go test -update rewrites it) at byte %d: got\n...%s...\nwant\n...%s...",
			path, i, got[max(0, i-200):min(len(got), i+200)], w[max(0, i-200):min(len(w), i+200)])
	}
}

// TestRenderSelfContained checks what the page must never hold: a script,
// an unescaped name, or a reference to anything outside itself.
func TestRenderSelfContained(t *testing.T) {
	var b bytes.Buffer
	if err := report.Render(&b, page(t)); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, bad := range []string{"<script", "<e1>", "a<1>", "<b>", `href="http`, "url(http", "src=", "@import", "<link", "<iframe", "<img"} {
		if i := strings.Index(s, bad); i >= 0 {
			t.Errorf("the page holds %q: ...%s...", bad, s[max(0, i-80):min(len(s), i+80)])
		}
	}
	for _, want := range []string{"Experiment &lt;e1&gt;", "a&lt;1&gt;", `href="#config-a-1-"`, `id="config-a-1-"`, "<svg", "∞", "1\u2009234\u2009567"} {
		if !strings.Contains(s, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	// Every fragment the page links to is on the page.
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(`id="([^"]+)"`).FindAllStringSubmatch(s, -1) {
		ids[m[1]] = true
	}
	for _, m := range regexp.MustCompile(`href="#([^"]*)"`).FindAllStringSubmatch(s, -1) {
		if !ids[m[1]] {
			t.Errorf("link to #%s, which the page lacks", m[1])
		}
	}
}

func TestNum(t *testing.T) {
	for _, tt := range []struct {
		x    float64
		want string
	}{
		{math.NaN(), "–"}, {math.Inf(1), "∞"}, {0, "0"}, {0.012345, "0.0123"}, {4.56, "4.56"}, {999.6, "1\u2009000"},
		{789, "789"}, {12345, "12\u2009345"}, {-12345, "−12\u2009345"}, {9999999, "9\u2009999\u2009999"}, {12345678, "1.23e7"}, {0.0001234, "1.23e-4"}, {1e7, "1e7"},
	} {
		if got := report.Num(tt.x); got != tt.want {
			t.Errorf("Num(%v) = %q, want %q", tt.x, got, tt.want)
		}
	}
}

func TestDuration(t *testing.T) {
	for _, tt := range []struct {
		s    float64
		want string
	}{
		{math.NaN(), "–"}, {math.Inf(1), "∞"}, {0, "0 s"}, {53.8e-6, "53.8 µs"}, {0.00122, "1.22 ms"}, {4.5, "4.5 s"}, {750, "12.5 min"}, {11520, "3.2 h"},
	} {
		if got := report.Duration(tt.s); got != tt.want {
			t.Errorf("Duration(%v) = %q, want %q", tt.s, got, tt.want)
		}
	}
}
