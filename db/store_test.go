package db_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab"
	"sudokulab/db"
)

const (
	classicPuzzle   = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
	classicSolution = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
)

// fromSolution returns a puzzle holding the cells of the classic solution
// at the first givens positions: any subset of a solution keeps the rules.
func fromSolution(t testing.TB, givens int) *sudokulab.Puzzle {
	t.Helper()
	b := []byte(strings.Repeat(".", 81))
	copy(b, classicSolution[:givens])
	return &sudokulab.Puzzle{Givens: sudokulab.MustParse(string(b))}
}

func count(t testing.TB, d *db.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := d.QueryRowxContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func intp(n int) *int { return &n }

func TestAddPuzzle(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	p := &sudokulab.Puzzle{Givens: sudokulab.MustParse(classicPuzzle)}
	id, created, err := db.AddPuzzle(ctx, d, p)
	if err != nil || !created || id == 0 || p.ID != id || p.CreatedAt.IsZero() {
		t.Fatalf("first AddPuzzle = %d, %v, %v (p %+v)", id, created, err, p)
	}

	// The same puzzle again, written with other blanks and now with its
	// solution: one row, the solution filled in.
	again := &sudokulab.Puzzle{
		Givens:        sudokulab.MustParse(strings.ReplaceAll(classicPuzzle, ".", "0")),
		Solution:      sudokulab.MustParse(classicSolution),
		SolutionCount: intp(1),
	}
	id2, created, err := db.AddPuzzle(ctx, d, again)
	if err != nil || created || id2 != id || again.ID != id {
		t.Fatalf("second AddPuzzle = %d, %v, %v; want %d, false", id2, created, err, id)
	}
	if n := count(t, d, "SELECT COUNT(*) FROM puzzles"); n != 1 {
		t.Fatalf("%d rows, want 1", n)
	}
	got, err := db.GetPuzzle(ctx, d, id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Givens.String() != classicPuzzle || got.Solution.String() != classicSolution ||
		got.SolutionCount == nil || *got.SolutionCount != 1 || got.Givens.Shape != sudokulab.Classic ||
		!got.CreatedAt.Equal(p.CreatedAt) {
		t.Fatalf("GetPuzzle = %+v", got)
	}
	var size, givens int
	if err := d.QueryRowxContext(ctx, "SELECT size, givens FROM puzzles WHERE id = ?", id).Scan(&size, &givens); err != nil {
		t.Fatal(err)
	}
	if size != 9 || givens != p.Givens.Givens() {
		t.Errorf("size %d givens %d", size, givens)
	}

	// The same text with another box shape is another puzzle.
	text := "123456" + strings.Repeat(".", 30)
	a, _ := sudokulab.ParseShape(text, sudokulab.Shape{BoxRows: 2, BoxCols: 3})
	b, _ := sudokulab.ParseShape(text, sudokulab.Shape{BoxRows: 3, BoxCols: 2})
	ida, _, err1 := db.AddPuzzle(ctx, d, &sudokulab.Puzzle{Givens: a})
	idb, createdb, err2 := db.AddPuzzle(ctx, d, &sudokulab.Puzzle{Givens: b})
	if err1 != nil || err2 != nil || ida == idb || !createdb {
		t.Fatalf("shapes 2x3 and 3x2: %d %v, %d %v %v", ida, err1, idb, createdb, err2)
	}
	found, err := db.FindPuzzle(ctx, d, sudokulab.Shape{BoxRows: 3, BoxCols: 2}, text)
	if err != nil || found.ID != idb {
		t.Fatalf("FindPuzzle = %v, %v; want id %d", found, err, idb)
	}

	bad := []struct {
		name string
		p    *sudokulab.Puzzle
		code string
	}{
		{"conflict", &sudokulab.Puzzle{Givens: sudokulab.MustParse("11" + strings.Repeat(".", 79))}, sudokulab.EINVALID},
		{"wrong solution", &sudokulab.Puzzle{Givens: sudokulab.MustParse(classicPuzzle), Solution: sudokulab.MustParse(strings.Repeat("1", 81))}, sudokulab.EINVALID},
		{"count 3", &sudokulab.Puzzle{Givens: sudokulab.MustParse(classicPuzzle), SolutionCount: intp(3)}, sudokulab.EINVALID},
		{"empty grid", &sudokulab.Puzzle{}, sudokulab.EINVALID},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := db.AddPuzzle(ctx, d, tt.p)
			wantCode(t, err, tt.code)
		})
	}

	_, err = db.GetPuzzle(ctx, d, 12345)
	wantCode(t, err, sudokulab.ENOTFOUND)
	_, err = db.FindPuzzle(ctx, d, sudokulab.Classic, classicSolution)
	wantCode(t, err, sudokulab.ENOTFOUND)
	_, err = db.FindPuzzle(ctx, d, sudokulab.Classic, "12")
	wantCode(t, err, sudokulab.EINVALID)
}

// seedCatalog stores puzzles with 20..34 givens; those with an even number
// of givens go to collection "even", those with 25 or more to "many", and
// 20 stays in none... except that it is even. 21 is in no collection.
func seedCatalog(t *testing.T, d *db.DB) map[int]int64 {
	t.Helper()
	ctx := context.Background()
	ids := map[int]int64{}
	err := d.WithTx(ctx, func(tx *sqlx.Tx) error {
		even, err := db.EnsureCollection(ctx, tx, "even", "even number of givens")
		if err != nil {
			return err
		}
		many, err := db.EnsureCollection(ctx, tx, "many", "")
		if err != nil {
			return err
		}
		for g := 20; g < 35; g++ {
			id, _, err := db.AddPuzzle(ctx, tx, fromSolution(t, g))
			if err != nil {
				return err
			}
			ids[g] = id
			if g%2 == 0 {
				if err := db.AddMembership(ctx, tx, sudokulab.Membership{CollectionID: even, PuzzleID: id, Label: fmt.Sprintf("e%d", g)}); err != nil {
					return err
				}
			}
			if g >= 25 {
				if err := db.AddMembership(ctx, tx, sudokulab.Membership{CollectionID: many, PuzzleID: id, Label: fmt.Sprintf("m;%d", g), Metadata: `{"g":1}`}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

func TestMembershipsAndListPuzzles(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	ids := seedCatalog(t, d)

	// Collections and their counts.
	cols, err := db.ListCollections(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	if len(cols) != 2 || cols[0].Name != "even" || cols[0].Puzzles != 8 || cols[1].Name != "many" || cols[1].Puzzles != 10 ||
		cols[0].Description != "even number of givens" || cols[0].CreatedAt.IsZero() {
		t.Fatalf("ListCollections = %+v", cols)
	}
	// EnsureCollection finds the existing one and fills a missing description.
	if id, err := db.EnsureCollection(ctx, d, "many", "at least 25"); err != nil || id != cols[1].ID {
		t.Fatalf("EnsureCollection again = %d, %v", id, err)
	}

	// Positions follow insertion order; adding again is a no-op except for
	// a new label.
	ms, err := db.PuzzleCollections(ctx, d, ids[26])
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].Collection != "even" || ms[0].Position != 4 || ms[0].Label != "e26" ||
		ms[1].Collection != "many" || ms[1].Position != 2 || ms[1].Metadata != `{"g":1}` || ms[1].ImportID != 0 || ms[1].SourceLine != 0 {
		t.Fatalf("PuzzleCollections(26) = %+v", ms)
	}
	if err := db.AddMembership(ctx, d, sudokulab.Membership{CollectionID: ms[0].CollectionID, PuzzleID: ids[26]}); err != nil {
		t.Fatal(err)
	}
	if err := db.AddMembership(ctx, d, sudokulab.Membership{CollectionID: ms[0].CollectionID, PuzzleID: ids[26], Label: "renamed", Position: 99}); err != nil {
		t.Fatal(err)
	}
	ms2, _ := db.PuzzleCollections(ctx, d, ids[26])
	if ms2[0].Position != 4 || ms2[0].Label != "renamed" || count(t, d, "SELECT COUNT(*) FROM collection_puzzles") != 18 {
		t.Fatalf("after adding again: %+v", ms2)
	}

	tests := []struct {
		where string
		limit int
		want  []int // givens of the puzzles, in id order
	}{
		{"", 0, []int{20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34}},
		{"", 3, []int{20, 21, 22}},
		{"collection = 'even' AND givens < 25", 0, []int{20, 22, 24}},
		{"collection = 'many' AND givens < 28", 0, []int{25, 26, 27}},
		{"collection IS NULL", 0, []int{21, 23}},
		{"collection IN ('even', 'many') AND givens >= 30", 2, []int{30, 31}},
		{"label = 'm;33' -- a comment; with a semicolon", 0, []int{33}},
		{"givens = 29 /* ; */", 0, []int{29}},
		{"size = 9 AND position = 1", 0, []int{20, 25}},
		{"collection = 'none'", 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.where, func(t *testing.T) {
			ps, err := db.ListPuzzles(ctx, d, tt.where, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, p := range ps {
				got = append(got, p.Givens.Givens())
				if p.ID != ids[p.Givens.Givens()] {
					t.Errorf("puzzle with %d givens has id %d, want %d", p.Givens.Givens(), p.ID, ids[p.Givens.Givens()])
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("ListPuzzles(%q, %d) givens %v, want %v", tt.where, tt.limit, got, tt.want)
			}
		})
	}

	bad := []struct {
		where, msg string
	}{
		{"no_such_column = 1", "no such column: no_such_column"},
		{"givens <", "syntax error"},
		{"1=1; DELETE FROM puzzles", "';'"},
		{"1=1); DELETE FROM puzzles; SELECT (1", "';'"},
	}
	for _, tt := range bad {
		t.Run("bad "+tt.where, func(t *testing.T) {
			ps, err := db.ListPuzzles(ctx, d, tt.where, 0)
			wantCode(t, err, sudokulab.EINVALID)
			if !strings.Contains(err.Error(), tt.msg) || ps != nil {
				t.Fatalf("error %q, puzzles %v: want the message %q and nothing", err, ps, tt.msg)
			}
			if n := count(t, d, "SELECT COUNT(*) FROM puzzles"); n != 15 {
				t.Fatalf("%d puzzles left", n)
			}
		})
	}
}

func TestPuzzleCatalogView(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	ids := seedCatalog(t, d)
	rows := count(t, d, "SELECT COUNT(*) FROM puzzle_catalog")
	if rows != 8+10+2 { // memberships + puzzles in no collection
		t.Fatalf("puzzle_catalog has %d rows", rows)
	}
	var collection *string
	var label *string
	if err := d.QueryRowxContext(ctx, "SELECT collection, label FROM puzzle_catalog WHERE id = ?", ids[21]).Scan(&collection, &label); err != nil {
		t.Fatal(err)
	}
	if collection != nil || label != nil {
		t.Fatalf("puzzle in no collection: collection %v label %v", collection, label)
	}
}

func TestForeignKeysEnforced(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	col, err := db.EnsureCollection(ctx, d, "c", "")
	if err != nil {
		t.Fatal(err)
	}
	p := fromSolution(t, 30)
	if _, _, err := db.AddPuzzle(ctx, d, p); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		err  error
	}{
		{"membership of a missing puzzle", db.AddMembership(ctx, d, sudokulab.Membership{CollectionID: col, PuzzleID: 999})},
		{"membership in a missing collection", db.AddMembership(ctx, d, sudokulab.Membership{CollectionID: 999, PuzzleID: p.ID})},
		{"membership from a missing import", db.AddMembership(ctx, d, sudokulab.Membership{CollectionID: col, PuzzleID: p.ID, ImportID: 999})},
		{"rating of a missing puzzle", db.UpsertRating(ctx, d, sudokulab.Rating{PuzzleID: 999, Rater: "r"})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantCode(t, tt.err, sudokulab.ENOTFOUND)
		})
	}
	_, err = db.InsertRun(ctx, d, &sudokulab.Run{PuzzleID: p.ID, ConfigID: 999, Status: sudokulab.StatusSolved}, nil)
	wantCode(t, err, sudokulab.ENOTFOUND)
	if n := count(t, d, "SELECT COUNT(*) FROM collection_puzzles") + count(t, d, "SELECT COUNT(*) FROM runs"); n != 0 {
		t.Fatalf("%d rows written", n)
	}
	// Deleting a puzzle deletes its memberships.
	if err := db.AddMembership(ctx, d, sudokulab.Membership{CollectionID: col, PuzzleID: p.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.ExecContext(ctx, "DELETE FROM puzzles WHERE id = ?", p.ID); err != nil {
		t.Fatal(err)
	}
	if n := count(t, d, "SELECT COUNT(*) FROM collection_puzzles"); n != 0 {
		t.Fatalf("membership survived its puzzle")
	}
}

func TestImports(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	col, _ := db.EnsureCollection(ctx, d, "c", "")
	im := &sudokulab.Import{FileName: "p.sdk", FileSHA256: strings.Repeat("ab", 32), Format: "sdk"}
	id, err := db.InsertImport(ctx, d, im)
	if err != nil || id == 0 || im.ID != id || im.StartedAt.IsZero() {
		t.Fatalf("InsertImport = %d, %v", id, err)
	}
	p := fromSolution(t, 30)
	db.AddPuzzle(ctx, d, p)
	if err := db.AddMembership(ctx, d, sudokulab.Membership{CollectionID: col, PuzzleID: p.ID, ImportID: id, SourceLine: 7}); err != nil {
		t.Fatal(err)
	}
	im.CollectionID, im.PuzzlesRead, im.PuzzlesNew = col, 1, 1
	if err := db.FinishImport(ctx, d, im); err != nil || im.FinishedAt.IsZero() {
		t.Fatal(err)
	}
	var finished string
	var read, line int
	if err := d.QueryRowxContext(ctx, `SELECT i.finished_at, i.puzzles_read, cp.source_line
		FROM imports i JOIN collection_puzzles cp ON cp.import_id = i.id`).Scan(&finished, &read, &line); err != nil {
		t.Fatal(err)
	}
	if finished != db.FormatTime(im.FinishedAt) || read != 1 || line != 7 {
		t.Fatalf("import row: %s %d %d", finished, read, line)
	}
	wantCode(t, db.FinishImport(ctx, d, &sudokulab.Import{ID: 999}), sudokulab.ENOTFOUND)
}

func TestUpsertRatingReplaces(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	p := fromSolution(t, 30)
	if _, _, err := db.AddPuzzle(ctx, d, p); err != nil {
		t.Fatal(err)
	}
	v1, v2 := 3.5, 7.25
	steps := []sudokulab.Rating{
		{PuzzleID: p.ID, Rater: "se", RaterVersion: "1", Value: &v1, Label: "easy", Details: `{"steps":3}`},
		{PuzzleID: p.ID, Rater: "se", RaterVersion: "2", Options: `{"b":1,"a":2}`, Value: &v2},
		{PuzzleID: p.ID, Rater: "backtracks", RaterVersion: "1"},
	}
	for _, r := range steps {
		if err := db.UpsertRating(ctx, d, r); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := db.PuzzleRatings(ctx, d, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 {
		t.Fatalf("%d ratings, want 2: %+v", len(rs), rs)
	}
	bt, se := rs[0], rs[1]
	if bt.Rater != "backtracks" || bt.Value != nil || bt.Options != "{}" || bt.Label != "" {
		t.Errorf("backtracks rating %+v", bt)
	}
	if se.RaterVersion != "2" || se.Value == nil || *se.Value != v2 || se.Label != "" || se.Details != "" || se.Options != `{"b":1,"a":2}` {
		t.Errorf("se rating not replaced: %+v", se)
	}
	wantCode(t, db.UpsertRating(ctx, d, sudokulab.Rating{PuzzleID: p.ID, Rater: "x", Options: "[1]"}), sudokulab.EINVALID)
	if n := count(t, d, "SELECT COUNT(*) FROM rating_table WHERE grid = ?", p.Givens.String()); n != 2 {
		t.Errorf("rating_table has %d rows for the puzzle", n)
	}
}

func TestEnsureConfig(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	c := &sudokulab.Config{Name: "ga-default", Solver: "ga", Params: `{ "pop": 100, "cx": 0.3 }`, Preset: true}
	id, created, err := db.EnsureConfig(ctx, d, c)
	if err != nil || !created || c.ID != id || c.Params != `{"cx":0.3,"pop":100}` ||
		c.ParamsHash != sudokulab.ConfigParamsHash("ga", `{"cx":0.3,"pop":100}`) {
		t.Fatalf("EnsureConfig = %d, %v, %v; %+v", id, created, err, c)
	}
	again := &sudokulab.Config{Name: "ga-default", Solver: "ga", Params: `{"pop":100,"cx":0.3}`}
	if id2, created, err := db.EnsureConfig(ctx, d, again); err != nil || created || id2 != id {
		t.Fatalf("EnsureConfig again = %d, %v, %v", id2, created, err)
	}
	_, _, err = db.EnsureConfig(ctx, d, &sudokulab.Config{Name: "other-name", Solver: "ga", Params: `{"pop":100,"cx":0.3}`})
	wantCode(t, err, sudokulab.ECONFLICT)
	_, _, err = db.EnsureConfig(ctx, d, &sudokulab.Config{Name: "ga-default", Solver: "ga", Params: `{"pop":200}`})
	wantCode(t, err, sudokulab.ECONFLICT)
	_, _, err = db.EnsureConfig(ctx, d, &sudokulab.Config{Name: "x", Solver: "ga", Params: `[1]`})
	wantCode(t, err, sudokulab.EINVALID)
	// Canonical text is stable: canonicalizing it again, or encoding the
	// same map with encoding/json (Params.Canonical), gives the same text.
	for _, in := range []string{`{"b":[1,{"z":1,"y":2.50}],"a":"<&>"}`, `{}`, ``, `{"n":1e3}`} {
		once, err := sudokulab.CanonicalParams(in)
		if err != nil {
			t.Fatal(err)
		}
		twice, _ := sudokulab.CanonicalParams(once)
		if once != twice {
			t.Errorf("CanonicalParams(%s) = %s, then %s", in, once, twice)
		}
	}
	params := sudokulab.Params{"x": "<a>", "p": int64(100), "f": 0.25}
	if got, _ := sudokulab.CanonicalParams(`{"x":"<a>","p":100,"f":0.25}`); got != params.Canonical() {
		t.Errorf("CanonicalParams and Params.Canonical differ: %s vs %s", got, params.Canonical())
	}
	got, err := db.GetConfig(ctx, d, "ga-default")
	if err != nil || got.ID != id || !got.Preset || got.Params != c.Params || got.ParamsHash != c.ParamsHash {
		t.Fatalf("GetConfig = %+v, %v", got, err)
	}
	_, err = db.GetConfig(ctx, d, "nope")
	wantCode(t, err, sudokulab.ENOTFOUND)
}

// runFixture stores a puzzle, a configuration and an experiment.
func runFixture(t testing.TB, d *db.DB) (puzzle *sudokulab.Puzzle, config, experiment int64) {
	t.Helper()
	ctx := context.Background()
	puzzle = &sudokulab.Puzzle{Givens: sudokulab.MustParse(classicPuzzle)}
	if _, _, err := db.AddPuzzle(ctx, d, puzzle); err != nil {
		t.Fatal(err)
	}
	config, _, err := db.EnsureConfig(ctx, d, &sudokulab.Config{Name: "ga", Solver: "ga", Params: `{"pop":10}`})
	if err != nil {
		t.Fatal(err)
	}
	experiment, err = db.EnsureExperiment(ctx, d, "exp", "a test")
	if err != nil {
		t.Fatal(err)
	}
	return puzzle, config, experiment
}

func makePoints(n int) []sudokulab.TrajectoryPoint {
	pts := make([]sudokulab.TrajectoryPoint, n)
	for i := range pts {
		pts[i] = sudokulab.TrajectoryPoint{Generation: int64(i), Evaluations: int64(100 * i), ElapsedSeconds: float64(i) / 1000, BestCost: max(0, n/2-i)}
		if i%3 != 0 {
			c := float64(n-i) + 0.5
			pts[i].CurrentCost = &c
		}
	}
	return pts
}

func TestInsertRunRoundTrip(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	puzzle, config, exp := runFixture(t, d)
	start := time.Date(2025, 3, 14, 9, 26, 53, 589_793_238, time.UTC)
	wall := 1.25
	run := &sudokulab.Run{
		ExperimentID: exp, PuzzleID: puzzle.ID, ConfigID: config, Seed: -42,
		MaxEvaluations: 1_000_000, TimeoutMS: 5000, Status: sudokulab.StatusSolved,
		Evaluations: 123_456, Generations: 789, Restarts: 2, BestCost: intp(0),
		FinalGrid: sudokulab.MustParse(classicSolution), WallSeconds: &wall,
		CodeVersion: "v0.1.0", Host: "lab1", StartedAt: start, FinishedAt: start.Add(1250 * time.Millisecond),
	}
	pts := makePoints(db.PointBatch*2 + 17)
	id, err := db.InsertRun(ctx, d, run, pts)
	if err != nil || id == 0 || run.ID != id {
		t.Fatalf("InsertRun = %d, %v", id, err)
	}
	got, err := db.GetRun(ctx, d, id)
	if err != nil {
		t.Fatal(err)
	}
	want := *run
	want.StartedAt = start.Truncate(time.Millisecond)
	want.FinishedAt = want.StartedAt.Add(1250 * time.Millisecond)
	if runText(*got) != runText(want) {
		t.Fatalf("GetRun:\n got %s\nwant %s", runText(*got), runText(want))
	}
	runs, err := db.PuzzleRuns(ctx, d, puzzle.ID)
	if err != nil || len(runs) != 1 || runs[0].ID != id {
		t.Fatalf("PuzzleRuns = %+v, %v", runs, err)
	}
	traj, err := db.RunTrajectory(ctx, d, id)
	if err != nil || len(traj) != len(pts) {
		t.Fatalf("RunTrajectory: %d points, %v; want %d", len(traj), err, len(pts))
	}
	for i, p := range traj {
		w := pts[i]
		w.RunID, w.Seq = id, i
		if p.RunID != w.RunID || p.Seq != w.Seq || p.Generation != w.Generation || p.Evaluations != w.Evaluations ||
			p.ElapsedSeconds != w.ElapsedSeconds || p.BestCost != w.BestCost || ptr(p.CurrentCost) != ptr(w.CurrentCost) {
			t.Fatalf("point %d: got %+v %v, want %+v %v", i, p, ptr(p.CurrentCost), w, ptr(w.CurrentCost))
		}
	}
	var startedText string
	var solved int
	if err := d.QueryRowxContext(ctx, "SELECT started_at, solved FROM run_results WHERE id = ? AND experiment = 'exp' AND config = 'ga'", id).Scan(&startedText, &solved); err != nil {
		t.Fatal(err)
	}
	if startedText != "2025-03-14T09:26:53.589Z" || solved != 1 {
		t.Errorf("run_results: started_at %q solved %d", startedText, solved)
	}

	// The same identity again is refused and writes nothing.
	dup := *run
	dup.ID, dup.Status = 0, sudokulab.StatusUnsolved
	_, err = db.InsertRun(ctx, d, &dup, makePoints(10))
	wantCode(t, err, sudokulab.ECONFLICT)
	if n := count(t, d, "SELECT COUNT(*) FROM trajectory_points"); n != len(pts) {
		t.Fatalf("%d points after the duplicate, want %d", n, len(pts))
	}
	if fid, found, err := db.FindRunID(ctx, d, dup); err != nil || !found || fid != id {
		t.Fatalf("FindRunID = %d, %v, %v", fid, found, err)
	}
	// Another budget is another run; an error run may lack a cost.
	dup.TimeoutMS, dup.Status, dup.BestCost, dup.FinalGrid, dup.Error = 0, sudokulab.StatusError, nil, sudokulab.Grid{}, "boom"
	if _, found, _ := db.FindRunID(ctx, d, dup); found {
		t.Fatal("FindRunID found a run with another budget")
	}
	id2, err := db.InsertRun(ctx, d, &dup, nil)
	if err != nil {
		t.Fatal(err)
	}
	got2, err := db.GetRun(ctx, d, id2)
	if err != nil || got2.BestCost != nil || got2.FinalGrid.Cells != nil || got2.Error != "boom" || got2.Status != sudokulab.StatusError {
		t.Fatalf("error run = %+v, %v", got2, err)
	}
	wantCode(t, func() error { _, err := db.InsertRun(ctx, d, &sudokulab.Run{Status: "great"}, nil); return err }(), sudokulab.EINVALID)

	// Deleting a run deletes its trajectory.
	if _, err := d.ExecContext(ctx, "DELETE FROM runs WHERE id = ?", id); err != nil {
		t.Fatal(err)
	}
	if n := count(t, d, "SELECT COUNT(*) FROM trajectory_points"); n != 0 {
		t.Fatalf("%d points survived their run", n)
	}
}

func TestInsertRunInCallerTransaction(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	puzzle, config, _ := runFixture(t, d)
	boom := fmt.Errorf("boom")
	err := d.WithTx(ctx, func(tx *sqlx.Tx) error {
		if _, err := db.InsertRun(ctx, tx, &sudokulab.Run{PuzzleID: puzzle.ID, ConfigID: config, Status: sudokulab.StatusSolved}, makePoints(3)); err != nil {
			return err
		}
		return boom
	})
	if err != boom {
		t.Fatalf("WithTx = %v", err)
	}
	if n := count(t, d, "SELECT COUNT(*) FROM runs") + count(t, d, "SELECT COUNT(*) FROM trajectory_points"); n != 0 {
		t.Fatalf("rolled-back transaction left %d rows", n)
	}
}

// runText prints every field of a run, pointers by value.
func runText(r sudokulab.Run) string {
	return fmt.Sprintf("id=%d exp=%d puzzle=%d config=%d seed=%d budget=%d/%d/%d %s evals=%d gens=%d restarts=%d best=%v final=%s wall=%v err=%q code=%q host=%q %s..%s",
		r.ID, r.ExperimentID, r.PuzzleID, r.ConfigID, r.Seed, r.MaxEvaluations, r.MaxGenerations, r.TimeoutMS, r.Status,
		r.Evaluations, r.Generations, r.Restarts, ptr(r.BestCost), r.FinalGrid.String(), ptr(r.WallSeconds), r.Error,
		r.CodeVersion, r.Host, r.StartedAt.Format(time.RFC3339Nano), r.FinishedAt.Format(time.RFC3339Nano))
}

func ptr[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestInsertPointsOfSeveralRuns stores the points of two runs, interleaved
// and more than two full batches, in one transaction, as the run engine
// does, and reads each run's trajectory back in order.
func TestInsertPointsOfSeveralRuns(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	puzzle, config, _ := runFixture(t, d)
	var ids [2]int64
	var all []sudokulab.TrajectoryPoint
	want := map[int64][]sudokulab.TrajectoryPoint{}
	err := d.WithTx(ctx, func(tx *sqlx.Tx) error {
		for i := range ids {
			r := &sudokulab.Run{PuzzleID: puzzle.ID, ConfigID: config, Seed: int64(i), Status: sudokulab.StatusUnsolved}
			id, inserted, err := db.InsertRunIfNew(ctx, tx, r, nil)
			if err != nil || !inserted {
				return fmt.Errorf("run %d: inserted %v, %v", i, inserted, err)
			}
			ids[i] = id
		}
		pts := makePoints(db.PointBatch*3 + 5)
		for i, p := range pts {
			p.RunID, p.Seq = ids[i%2], i/2
			all = append(all, p)
			want[p.RunID] = append(want[p.RunID], p)
		}
		return db.InsertPoints(ctx, tx, all)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		got, err := db.RunTrajectory(ctx, d, id)
		if err != nil || len(got) != len(want[id]) {
			t.Fatalf("run %d: %d points, %v; want %d", id, len(got), err, len(want[id]))
		}
		for i, p := range got {
			w := want[id][i]
			if p.Seq != i || p.Generation != w.Generation || p.BestCost != w.BestCost || ptr(p.CurrentCost) != ptr(w.CurrentCost) {
				t.Fatalf("run %d point %d: %+v, want %+v", id, i, p, w)
			}
		}
	}
}
