package db_test

// The store suite: the store functions' key scenarios, run on every
// backend through one function taking an opener (as restic and litestream
// test their backends). Engine-specific behaviour (SQLite's pragmas, files
// on disk) stays in db_test.go.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab"
	"sudokulab/db"
)

// TestStore runs the store suite on every backend.
func TestStore(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) { storeSuite(t, b) })
}

// storeSuite runs every scenario on a fresh database of the backend.
func storeSuite(t *testing.T, b backend) {
	runScenarios(t, b, []scenario{
		{"AddPuzzle", suiteAddPuzzle},
		{"CollectionsAndListPuzzles", suiteCollectionsAndListPuzzles},
		{"ForeignKeys", suiteForeignKeys},
		{"Imports", suiteImports},
		{"ImportWriterAcrossTransactions", suiteImportWriterAcrossTransactions},
		{"Ratings", suiteRatings},
		{"Configs", suiteConfigs},
		{"RunRoundTrip", suiteRunRoundTrip},
		{"RunsInCallerTransaction", suiteRunsInCallerTransaction},
		{"FreezeCollection", suiteFreezeCollection},
		{"FreezeOrderLabelsReplace", suiteFreezeOrderLabelsReplace},
		{"ImportedRatingsBesideComputed", suiteImportedRatingsBesideComputed},
		{"ImportLeavesFrozenCollections", suiteImportLeavesFrozenCollections},
		{"RunTable", suiteRunTable},
		{"ExperimentReports", suiteExperimentReports},
		{"QueryReadOnly", suiteQueryReadOnly},
		{"Reopen", func(t *testing.T, d *db.DB) { suiteReopen(t, d, b) }},
	})
}

func suiteAddPuzzle(t *testing.T, d *db.DB) {
	ctx := context.Background()
	p := &sudokulab.Puzzle{Givens: sudokulab.MustParse(classicPuzzle)}
	id, created, err := db.AddPuzzle(ctx, d, p)
	if err != nil || !created || id == 0 || p.ID != id || p.CreatedAt.IsZero() {
		t.Fatalf("first AddPuzzle = %d, %v, %v (p %+v)", id, created, err, p)
	}
	again := &sudokulab.Puzzle{
		Givens:        sudokulab.MustParse(strings.ReplaceAll(classicPuzzle, ".", "0")),
		Solution:      sudokulab.MustParse(classicSolution),
		SolutionCount: intp(1),
	}
	id2, created, err := db.AddPuzzle(ctx, d, again)
	if err != nil || created || id2 != id || again.ID != id {
		t.Fatalf("second AddPuzzle = %d, %v, %v; want %d, false", id2, created, err, id)
	}
	if n := countOf(t, d, "SELECT COUNT(*) FROM puzzles"); n != 1 {
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
	if n := countOf(t, d, "SELECT size * 100 + givens FROM puzzles WHERE id = ?", id); n != 900+p.Givens.Givens() {
		t.Errorf("size and givens %d", n)
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
	if err := db.SetSymmetryForm(ctx, d, id, "form"); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.GetPuzzle(ctx, d, id); got.SymmetryForm != "form" {
		t.Errorf("symmetry form %q", got.SymmetryForm)
	}
	for _, tt := range []struct {
		name string
		p    *sudokulab.Puzzle
	}{
		{"conflict", &sudokulab.Puzzle{Givens: sudokulab.MustParse("11" + strings.Repeat(".", 79))}},
		{"wrong solution", &sudokulab.Puzzle{Givens: sudokulab.MustParse(classicPuzzle), Solution: sudokulab.MustParse(strings.Repeat("1", 81))}},
		{"count 3", &sudokulab.Puzzle{Givens: sudokulab.MustParse(classicPuzzle), SolutionCount: intp(3)}},
		{"empty grid", &sudokulab.Puzzle{}},
	} {
		if _, _, err := db.AddPuzzle(ctx, d, tt.p); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
			t.Errorf("AddPuzzle of a puzzle with %s: %v, want EINVALID", tt.name, err)
		}
	}
	_, err = db.GetPuzzle(ctx, d, 12345)
	wantCode(t, err, sudokulab.ENOTFOUND)
	_, err = db.FindPuzzle(ctx, d, sudokulab.Classic, classicSolution)
	wantCode(t, err, sudokulab.ENOTFOUND)
	_, err = db.FindPuzzle(ctx, d, sudokulab.Classic, "12")
	wantCode(t, err, sudokulab.EINVALID)
}

func suiteCollectionsAndListPuzzles(t *testing.T, d *db.DB) {
	ctx := context.Background()
	ids := seedCatalog(t, d)
	cols, err := db.ListCollections(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	if len(cols) != 2 || cols[0].Name != "even" || cols[0].Puzzles != 8 || cols[1].Name != "many" || cols[1].Puzzles != 10 ||
		cols[0].Description != "even number of givens" || cols[0].CreatedAt.IsZero() {
		t.Fatalf("ListCollections = %+v", cols)
	}
	if id, err := db.EnsureCollection(ctx, d, "many", "at least 25"); err != nil || id != cols[1].ID {
		t.Fatalf("EnsureCollection again = %d, %v", id, err)
	}
	if c, err := db.GetCollection(ctx, d, "many"); err != nil || c.Description != "at least 25" || c.Puzzles != 10 {
		t.Fatalf("GetCollection = %+v, %v", c, err)
	}
	ms, err := db.PuzzleCollections(ctx, d, ids[26])
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].Collection != "even" || ms[0].Position != 4 || ms[0].Label != "e26" ||
		ms[1].Collection != "many" || ms[1].Position != 2 || ms[1].Metadata != `{"g":1}` || ms[1].ImportID != 0 || ms[1].SourceLine != 0 {
		t.Fatalf("PuzzleCollections(26) = %+v", ms)
	}
	// Adding again changes nothing but a non-empty label.
	if err := db.AddMembership(ctx, d, sudokulab.Membership{CollectionID: ms[0].CollectionID, PuzzleID: ids[26]}); err != nil {
		t.Fatal(err)
	}
	if err := db.AddMembership(ctx, d, sudokulab.Membership{CollectionID: ms[0].CollectionID, PuzzleID: ids[26], Label: "renamed", Position: 99}); err != nil {
		t.Fatal(err)
	}
	ms2, _ := db.PuzzleCollections(ctx, d, ids[26])
	if ms2[0].Position != 4 || ms2[0].Label != "renamed" || countOf(t, d, "SELECT COUNT(*) FROM collection_puzzles") != 18 {
		t.Fatalf("after adding again: %+v", ms2)
	}
	if n := countOf(t, d, "SELECT COUNT(*) FROM puzzle_catalog"); n != 8+10+2 {
		t.Fatalf("puzzle_catalog has %d rows", n)
	}
	if n := countOf(t, d, "SELECT COUNT(*) FROM puzzle_catalog WHERE id = ? AND collection IS NULL AND label IS NULL", ids[21]); n != 1 {
		t.Fatalf("puzzle in no collection: %d rows", n)
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
		ps, err := db.ListPuzzles(ctx, d, tt.where, tt.limit)
		if err != nil {
			t.Fatalf("ListPuzzles(%q): %v", tt.where, err)
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
	}
	// Both engines name the problem; neither runs a second statement.
	for _, tt := range []struct{ where, msg string }{
		{"no_such_column = 1", "no_such_column"},
		{"givens <", "syntax error"},
		{"1=1; DELETE FROM puzzles", "';'"},
		{"1=1); DELETE FROM puzzles; SELECT (1", "';'"},
	} {
		ps, err := db.ListPuzzles(ctx, d, tt.where, 0)
		wantCode(t, err, sudokulab.EINVALID)
		if !strings.Contains(err.Error(), tt.msg) || ps != nil {
			t.Errorf("ListPuzzles(%q): error %q, puzzles %v: want the message %q and nothing", tt.where, err, ps, tt.msg)
		}
	}
	if n := countOf(t, d, "SELECT COUNT(*) FROM puzzles"); n != 15 {
		t.Fatalf("%d puzzles left", n)
	}
	// The collection's table, and removing it.
	tab, err := db.CollectionTable(ctx, d, "even", 2)
	if err != nil || len(tab.Rows) != 2 || fmt.Sprint(tab.Rows[0][0], tab.Rows[0][1], tab.Rows[0][2]) != fmt.Sprint(1, ids[20], "e20") {
		t.Fatalf("CollectionTable = %v, %v", tab, err)
	}
	if n, err := db.DeleteCollection(ctx, d, "even"); err != nil || n != 8 {
		t.Fatalf("DeleteCollection = %d, %v", n, err)
	}
	if _, err := db.GetCollection(ctx, d, "even"); sudokulab.ErrorCode(err) != sudokulab.ENOTFOUND {
		t.Fatalf("GetCollection after removal: %v", err)
	}
	if n := countOf(t, d, "SELECT COUNT(*) FROM puzzles"); n != 15 {
		t.Fatalf("removing a collection removed puzzles: %d left", n)
	}
}

func suiteForeignKeys(t *testing.T, d *db.DB) {
	ctx := context.Background()
	col, err := db.EnsureCollection(ctx, d, "c", "")
	if err != nil {
		t.Fatal(err)
	}
	p := fromSolution(t, 30)
	if _, _, err := db.AddPuzzle(ctx, d, p); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"membership of a missing puzzle":     db.AddMembership(ctx, d, sudokulab.Membership{CollectionID: col, PuzzleID: 999}),
		"membership in a missing collection": db.AddMembership(ctx, d, sudokulab.Membership{CollectionID: 999, PuzzleID: p.ID}),
		"membership from a missing import":   db.AddMembership(ctx, d, sudokulab.Membership{CollectionID: col, PuzzleID: p.ID, ImportID: 999}),
		"rating of a missing puzzle":         db.UpsertRating(ctx, d, sudokulab.Rating{PuzzleID: 999, Rater: "r"}),
	} {
		if sudokulab.ErrorCode(err) != sudokulab.ENOTFOUND {
			t.Errorf("%s: %v, want ENOTFOUND", name, err)
		}
	}
	_, err = db.InsertRun(ctx, d, &sudokulab.Run{PuzzleID: p.ID, ConfigID: 999, Status: sudokulab.StatusSolved}, nil)
	wantCode(t, err, sudokulab.ENOTFOUND)
	if n := countOf(t, d, "SELECT COUNT(*) FROM collection_puzzles") + countOf(t, d, "SELECT COUNT(*) FROM runs"); n != 0 {
		t.Fatalf("%d rows written", n)
	}
	if err := db.AddMembership(ctx, d, sudokulab.Membership{CollectionID: col, PuzzleID: p.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.ExecContext(ctx, d.Rebind("DELETE FROM puzzles WHERE id = ?"), p.ID); err != nil {
		t.Fatal(err)
	}
	if n := countOf(t, d, "SELECT COUNT(*) FROM collection_puzzles"); n != 0 {
		t.Fatalf("membership survived its puzzle")
	}
}

func suiteImports(t *testing.T, d *db.DB) {
	ctx := context.Background()
	col, _ := db.EnsureCollection(ctx, d, "c", "")
	sum := strings.Repeat("ab", 32)
	im := &sudokulab.Import{FileName: "p.sdk", FileSHA256: sum, Format: "sdk"}
	id, err := db.InsertImport(ctx, d, im)
	if err != nil || id == 0 || im.ID != id || im.StartedAt.IsZero() {
		t.Fatalf("InsertImport = %d, %v", id, err)
	}
	p := fromSolution(t, 30)
	if _, _, err := db.AddPuzzle(ctx, d, p); err != nil {
		t.Fatal(err)
	}
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
	for _, collection := range []string{"c", ""} {
		got, name, found, err := db.FindImport(ctx, d, sum, collection)
		if err != nil || !found || got.ID != id || name != "c" || got.PuzzlesNew != 1 {
			t.Fatalf("FindImport(%q) = %+v, %q, %v, %v", collection, got, name, found, err)
		}
	}
	if _, _, found, err := db.FindImport(ctx, d, sum, "other"); err != nil || found {
		t.Fatalf("FindImport into another collection = %v, %v", found, err)
	}
	if tab, err := db.ImportTable(ctx, d, "c"); err != nil || len(tab.Rows) != 1 || fmt.Sprint(tab.Rows[0][1]) != "p.sdk" {
		t.Fatalf("ImportTable = %v, %v", tab, err)
	}
	wantCode(t, db.FinishImport(ctx, d, &sudokulab.Import{ID: 999}), sudokulab.ENOTFOUND)
}

// writeImportRows writes rows as an import's batch does, in a
// transaction of their own.
func writeImportRows(d *db.DB, rows []db.ImportRow) error {
	ctx := context.Background()
	return d.WithTx(ctx, func(tx *sqlx.Tx) error {
		w := d.ImportWriter(tx)
		defer w.Close()
		return w.Write(ctx, rows)
	})
}

// suiteImportWriterAcrossTransactions writes full chunks (400 rows, the
// statements DB.ImportWriter prepares once per lab) in one transaction
// after another, then the first chunk again: every transaction uses the
// statements prepared for the first, and the repeated puzzles are found,
// not stored twice.
func suiteImportWriterAcrossTransactions(t *testing.T, d *db.DB) {
	ctx := context.Background()
	col, err := db.EnsureCollection(ctx, d, "c", "")
	if err != nil {
		t.Fatal(err)
	}
	// Distinct puzzles: the classic solution's first 30 cells under
	// distinct relabelings of the digits.
	rng := rand.New(rand.NewPCG(4, 0))
	seen := map[string]bool{}
	chunk := func() []db.ImportRow {
		var rows []db.ImportRow
		for len(rows) < 400 {
			perm := rng.Perm(9)
			b := []byte(strings.Repeat(".", 81))
			for i := 0; i < 30; i++ {
				b[i] = byte('1' + perm[classicSolution[i]-'1'])
			}
			if seen[string(b)] {
				continue
			}
			seen[string(b)] = true
			rows = append(rows, db.ImportRow{Puzzle: &sudokulab.Puzzle{Givens: sudokulab.MustParse(string(b))},
				Membership: sudokulab.Membership{CollectionID: col}})
		}
		return rows
	}
	write := func(rows []db.ImportRow) {
		t.Helper()
		if err := writeImportRows(d, rows); err != nil {
			t.Fatal(err)
		}
	}
	first, second := chunk(), chunk()
	write(first)
	write(second)
	ids := map[int64]bool{}
	for _, rows := range [][]db.ImportRow{first, second} {
		for _, r := range rows {
			if !r.Created || !r.Added || r.Puzzle.ID == 0 || ids[r.Puzzle.ID] {
				t.Fatalf("row %s: created %v, added %v, id %d (seen before: %v)", r.Puzzle.Givens, r.Created, r.Added, r.Puzzle.ID, ids[r.Puzzle.ID])
			}
			ids[r.Puzzle.ID] = true
		}
	}
	again := make([]db.ImportRow, len(first))
	for i, r := range first {
		again[i] = db.ImportRow{Puzzle: &sudokulab.Puzzle{Givens: r.Puzzle.Givens}, Membership: sudokulab.Membership{CollectionID: col}}
	}
	write(again)
	for i, r := range again {
		if r.Created || r.Added || r.Puzzle.ID != first[i].Puzzle.ID {
			t.Fatalf("repeated row %d: created %v, added %v, id %d, want id %d", i, r.Created, r.Added, r.Puzzle.ID, first[i].Puzzle.ID)
		}
	}
	if n := countOf(t, d, "SELECT count(*) FROM puzzles"); n != 800 {
		t.Errorf("%d puzzles, want 800", n)
	}
	if n := countOf(t, d, "SELECT count(*) FROM collection_puzzles WHERE collection_id = ?", col); n != 800 {
		t.Errorf("%d memberships, want 800", n)
	}
	// Stored and new puzzles in turn, a new one twice: every row gets the
	// id the table has for its grid, and only the first of the new ones
	// is created.
	fresh := chunk()
	var mixed []db.ImportRow
	for i := range 200 {
		for _, g := range []sudokulab.Grid{second[i].Puzzle.Givens, fresh[i].Puzzle.Givens} {
			mixed = append(mixed, db.ImportRow{Puzzle: &sudokulab.Puzzle{Givens: g}, Membership: sudokulab.Membership{CollectionID: col}})
		}
	}
	mixed = append(mixed, db.ImportRow{Puzzle: &sudokulab.Puzzle{Givens: fresh[7].Puzzle.Givens}, Membership: sudokulab.Membership{CollectionID: col}})
	write(mixed)
	for i, r := range mixed {
		var id int64
		if err := d.QueryRowxContext(ctx, d.Rebind("SELECT id FROM puzzles WHERE grid = ?"), r.Puzzle.Givens.String()).Scan(&id); err != nil {
			t.Fatal(err)
		}
		wantCreated := i%2 == 1 && i < 400
		if r.Puzzle.ID != id || r.Created != wantCreated {
			t.Fatalf("mixed row %d: id %d created %v, want id %d created %v", i, r.Puzzle.ID, r.Created, id, wantCreated)
		}
	}
	if n := countOf(t, d, "SELECT count(*) FROM puzzles"); n != 1000 {
		t.Errorf("%d puzzles, want 1000", n)
	}
}

func suiteRatings(t *testing.T, d *db.DB) {
	ctx := context.Background()
	p := fromSolution(t, 30)
	if _, _, err := db.AddPuzzle(ctx, d, p); err != nil {
		t.Fatal(err)
	}
	v1, v2 := 3.5, 7.25
	for _, r := range []sudokulab.Rating{
		{PuzzleID: p.ID, Rater: "se", RaterVersion: "1", Value: &v1, Label: "easy", Details: `{"steps":3}`},
		{PuzzleID: p.ID, Rater: "se", RaterVersion: "2", Options: `{"b":1,"a":2}`, Value: &v2},
		{PuzzleID: p.ID, Rater: "backtracks", RaterVersion: "1"},
	} {
		if err := db.UpsertRating(ctx, d, r); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := db.PuzzleRatings(ctx, d, p.ID)
	if err != nil || len(rs) != 2 {
		t.Fatalf("PuzzleRatings = %+v, %v; want 2", rs, err)
	}
	bt, se := rs[0], rs[1]
	if bt.Rater != "backtracks" || bt.Value != nil || bt.Options != "{}" || bt.Label != "" || bt.RatedAt.IsZero() {
		t.Errorf("backtracks rating %+v", bt)
	}
	if se.RaterVersion != "2" || se.Value == nil || *se.Value != v2 || se.Label != "" || se.Details != "" || se.Options != `{"b":1,"a":2}` {
		t.Errorf("se rating not replaced: %+v", se)
	}
	wantCode(t, db.UpsertRating(ctx, d, sudokulab.Rating{PuzzleID: p.ID, Rater: "x", Options: "[1]"}), sudokulab.EINVALID)
	if n := countOf(t, d, "SELECT COUNT(*) FROM rating_table WHERE grid = ?", p.Givens.String()); n != 2 {
		t.Errorf("rating_table has %d rows for the puzzle, want 2", n)
	}
	if n := countOf(t, d, "SELECT COUNT(*) FROM rating_table WHERE grid = ? AND value > ?", p.Givens.String(), 7.0); n != 1 {
		t.Errorf("rating_table has %d rows for the puzzle above 7", n)
	}
}

func suiteConfigs(t *testing.T, d *db.DB) {
	ctx := context.Background()
	c := &sudokulab.Config{Name: "ga-default", Solver: "ga", Params: `{ "pop": 100, "cx": 0.3 }`, Preset: true}
	id, created, err := db.EnsureConfig(ctx, d, c)
	if err != nil || !created || c.ID != id || c.Params != `{"cx":0.3,"pop":100}` ||
		c.ParamsHash != sudokulab.ConfigParamsHash("ga", `{"cx":0.3,"pop":100}`) {
		t.Fatalf("EnsureConfig = %d, %v, %v; %+v", id, created, err, c)
	}
	if id2, created, err := db.EnsureConfig(ctx, d, &sudokulab.Config{Name: "ga-default", Solver: "ga", Params: `{"pop":100,"cx":0.3}`}); err != nil || created || id2 != id {
		t.Fatalf("EnsureConfig again = %d, %v, %v", id2, created, err)
	}
	_, _, err = db.EnsureConfig(ctx, d, &sudokulab.Config{Name: "other-name", Solver: "ga", Params: `{"pop":100,"cx":0.3}`})
	wantCode(t, err, sudokulab.ECONFLICT)
	_, _, err = db.EnsureConfig(ctx, d, &sudokulab.Config{Name: "ga-default", Solver: "ga", Params: `{"pop":200}`})
	wantCode(t, err, sudokulab.ECONFLICT)
	_, _, err = db.EnsureConfig(ctx, d, &sudokulab.Config{Name: "x", Solver: "ga", Params: `[1]`})
	wantCode(t, err, sudokulab.EINVALID)
	mine := &sudokulab.Config{Name: "mine", Solver: "tabu", Params: `{}`, Description: "by hand"}
	if _, _, err := db.EnsureConfig(ctx, d, mine); err != nil {
		t.Fatal(err)
	}
	got, err := db.GetConfig(ctx, d, "ga-default")
	if err != nil || got.ID != id || !got.Preset || got.Params != c.Params || got.ParamsHash != c.ParamsHash || got.CreatedAt.IsZero() {
		t.Fatalf("GetConfig = %+v, %v", got, err)
	}
	if got, err := db.GetConfigByID(ctx, d, mine.ID); err != nil || got.Name != "mine" || got.Preset || got.Description != "by hand" {
		t.Fatalf("GetConfigByID = %+v, %v", got, err)
	}
	_, err = db.GetConfig(ctx, d, "nope")
	wantCode(t, err, sudokulab.ENOTFOUND)
	if found, ok, err := db.FindConfigBySettings(ctx, d, "ga", c.ParamsHash); err != nil || !ok || found.ID != id {
		t.Fatalf("FindConfigBySettings = %+v, %v, %v", found, ok, err)
	}
	if _, ok, err := db.FindConfigBySettings(ctx, d, "tabu", c.ParamsHash); err != nil || ok {
		t.Fatalf("FindConfigBySettings of another solver = %v, %v", ok, err)
	}
	all, err := db.ListConfigs(ctx, d)
	if err != nil || len(all) != 2 || all[0].Name != "ga-default" || all[1].Name != "mine" {
		t.Fatalf("ListConfigs = %+v, %v; want the preset first", all, err)
	}
	tab, err := db.ConfigTable(ctx, d)
	if err != nil || len(tab.Rows) != 2 || fmt.Sprint(tab.Columns) != "[name solver preset runs solved params description]" {
		t.Fatalf("ConfigTable = %v, %v", tab, err)
	}
	if fmt.Sprint(tab.Rows[0][0], " ", asInt(t, tab.Rows[0][3]), " ", asInt(t, tab.Rows[0][4])) != "ga-default 0 0" {
		t.Errorf("ConfigTable first row %v", tab.Rows[0])
	}
}

// addRuns stores runs of the fixture's configuration on the puzzle with
// seeds 1..len(statuses), the evaluations 100 times the seed, each with
// three trajectory points.
func addRuns(t *testing.T, d *db.DB, puzzle, config, exp int64, statuses ...sudokulab.RunStatus) []int64 {
	t.Helper()
	ctx := context.Background()
	var ids []int64
	for i, st := range statuses {
		seed := int64(i + 1)
		wall := 0.5 * float64(seed)
		r := &sudokulab.Run{ExperimentID: exp, PuzzleID: puzzle, ConfigID: config, Seed: seed, MaxGenerations: 100,
			Status: st, Evaluations: 100 * seed, Generations: 10 * seed, BestCost: intp(0), WallSeconds: &wall, Host: "h" + strconv.Itoa(i%2)}
		if st != sudokulab.StatusSolved {
			r.BestCost = intp(int(seed))
		}
		id, err := db.InsertRun(ctx, d, r, makePoints(3))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

func suiteRunRoundTrip(t *testing.T, d *db.DB) {
	ctx := context.Background()
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
	conv := 0.25
	pts[5].Restarts, pts[5].Convergence = 1, &conv
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
	if runs, err := db.PuzzleRuns(ctx, d, puzzle.ID); err != nil || len(runs) != 1 || runs[0].ID != id {
		t.Fatalf("PuzzleRuns = %+v, %v", runs, err)
	}
	traj, err := db.RunTrajectory(ctx, d, id)
	if err != nil || len(traj) != len(pts) {
		t.Fatalf("RunTrajectory: %d points, %v; want %d", len(traj), err, len(pts))
	}
	for i, p := range traj {
		w := pts[i]
		if p.RunID != id || p.Seq != i || p.Generation != w.Generation || p.Evaluations != w.Evaluations || p.Restarts != w.Restarts ||
			p.ElapsedSeconds != w.ElapsedSeconds || p.BestCost != w.BestCost || ptr(p.CurrentCost) != ptr(w.CurrentCost) || ptr(p.Convergence) != ptr(w.Convergence) {
			t.Fatalf("point %d: got %+v, want %+v", i, p, w)
		}
	}
	var startedText string
	var solved int
	if err := d.QueryRowxContext(ctx, d.Rebind("SELECT started_at, solved FROM run_results WHERE id = ? AND experiment = 'exp' AND config = 'ga'"), id).Scan(&startedText, &solved); err != nil {
		t.Fatal(err)
	}
	if startedText != "2025-03-14T09:26:53.589Z" || solved != 1 {
		t.Errorf("run_results: started_at %q solved %d", startedText, solved)
	}
	// The same identity again is refused and writes nothing; InsertRunIfNew
	// skips it.
	dup := *run
	dup.ID, dup.Status = 0, sudokulab.StatusUnsolved
	_, err = db.InsertRun(ctx, d, &dup, makePoints(10))
	wantCode(t, err, sudokulab.ECONFLICT)
	if _, inserted, err := db.InsertRunIfNew(ctx, d, &dup, makePoints(10)); err != nil || inserted {
		t.Fatalf("InsertRunIfNew of a recorded run = %v, %v", inserted, err)
	}
	if n := countOf(t, d, "SELECT COUNT(*) FROM trajectory_points"); n != len(pts) {
		t.Fatalf("%d points after the duplicate, want %d", n, len(pts))
	}
	if fid, found, err := db.FindRunID(ctx, d, dup); err != nil || !found || fid != id {
		t.Fatalf("FindRunID = %d, %v, %v", fid, found, err)
	}
	recorded, err := db.RecordedRuns(ctx, d, []int64{config}, db.Budget{MaxEvaluations: 1_000_000, TimeoutMS: 5000})
	if err != nil || len(recorded) != 1 || !recorded[db.RunKey{PuzzleID: puzzle.ID, ConfigID: config, Seed: -42}] {
		t.Fatalf("RecordedRuns = %v, %v", recorded, err)
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
	stats, err := db.ConfigRunStats(ctx, d, "ga")
	if err != nil || len(stats) != 1 || stats[0].Runs != 1 || stats[0].Solved != 1 || stats[0].Evaluations != 123_456 || stats[0].Grid != classicPuzzle {
		t.Fatalf("ConfigRunStats = %+v, %v; want the solved run only", stats, err)
	}
	if _, err := d.ExecContext(ctx, d.Rebind("DELETE FROM runs WHERE id = ?"), id); err != nil {
		t.Fatal(err)
	}
	if n := countOf(t, d, "SELECT COUNT(*) FROM trajectory_points"); n != 0 {
		t.Fatalf("%d points survived their run", n)
	}
}

func suiteRunsInCallerTransaction(t *testing.T, d *db.DB) {
	ctx := context.Background()
	puzzle, config, _ := runFixture(t, d)
	boom := errors.New("boom")
	err := d.WithTx(ctx, func(tx *sqlx.Tx) error {
		if _, err := db.InsertRun(ctx, tx, &sudokulab.Run{PuzzleID: puzzle.ID, ConfigID: config, Status: sudokulab.StatusSolved}, makePoints(3)); err != nil {
			return err
		}
		return boom
	})
	if err != boom {
		t.Fatalf("WithTx = %v", err)
	}
	if n := countOf(t, d, "SELECT COUNT(*) FROM runs") + countOf(t, d, "SELECT COUNT(*) FROM trajectory_points"); n != 0 {
		t.Fatalf("rolled-back transaction left %d rows", n)
	}
	// The points of two runs, interleaved and more than two full batches,
	// in one transaction, as the run engine writes them.
	var ids [2]int64
	want := map[int64][]sudokulab.TrajectoryPoint{}
	err = d.WithTx(ctx, func(tx *sqlx.Tx) error {
		clear(want)
		for i := range ids {
			r := &sudokulab.Run{PuzzleID: puzzle.ID, ConfigID: config, Seed: int64(i), Status: sudokulab.StatusUnsolved}
			id, inserted, err := db.InsertRunIfNew(ctx, tx, r, nil)
			if err != nil || !inserted {
				return fmt.Errorf("run %d: inserted %v, %v", i, inserted, err)
			}
			ids[i] = id
		}
		var all []sudokulab.TrajectoryPoint
		for i, p := range makePoints(db.PointBatch*3 + 5) {
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
			if w := want[id][i]; p.Seq != i || p.Generation != w.Generation || p.BestCost != w.BestCost || ptr(p.CurrentCost) != ptr(w.CurrentCost) {
				t.Fatalf("run %d point %d: %+v, want %+v", id, i, p, w)
			}
		}
	}
}

func suiteFreezeCollection(t *testing.T, d *db.DB) {
	ctx := context.Background()
	ids := seedCatalog(t, d)
	n, err := db.FreezeCollection(ctx, d, "frozen", db.Freeze{Description: "even below 30", Where: "collection = 'even' AND givens < 30"})
	if err != nil || n != 5 {
		t.Fatalf("FreezeCollection = %d, %v; want 5", n, err)
	}
	c, err := db.GetCollection(ctx, d, "frozen")
	if err != nil || c.Puzzles != 5 || c.Description != "even below 30" {
		t.Fatalf("GetCollection = %+v, %v", c, err)
	}
	tab, err := db.CollectionTable(ctx, d, "frozen", 0)
	if err != nil || len(tab.Rows) != 5 {
		t.Fatalf("CollectionTable = %v, %v", tab, err)
	}
	for i, g := range []int{20, 22, 24, 26, 28} {
		if pos, id := asInt(t, tab.Rows[i][0]), asInt(t, tab.Rows[i][1]); pos != int64(i+1) || id != ids[g] {
			t.Errorf("row %d: position %d puzzle %d, want %d and %d", i, pos, id, i+1, ids[g])
		}
	}
	_, err = db.FreezeCollection(ctx, d, "frozen", db.Freeze{})
	wantCode(t, err, sudokulab.ECONFLICT)
	if n, err := db.FreezeCollection(ctx, d, "everything", db.Freeze{}); err != nil || n != 15 {
		t.Fatalf("FreezeCollection of every puzzle = %d, %v", n, err)
	}
	// As the command does: in a transaction, which a bad predicate rolls
	// back on every engine.
	err = d.WithTx(ctx, func(tx *sqlx.Tx) error {
		_, err := db.FreezeCollection(ctx, tx, "bad", db.Freeze{Where: "no_such_column = 1"})
		return err
	})
	wantCode(t, err, sudokulab.EINVALID)
	if _, err := db.GetCollection(ctx, d, "bad"); sudokulab.ErrorCode(err) != sudokulab.ENOTFOUND {
		t.Fatalf("a failed freeze left its collection: %v", err)
	}
	_, err = db.FreezeCollection(ctx, d, "worse", db.Freeze{Where: "1=1; DELETE FROM puzzles"})
	wantCode(t, err, sudokulab.EINVALID)
}

func suiteRunTable(t *testing.T, d *db.DB) {
	ctx := context.Background()
	puzzle, config, exp := runFixture(t, d)
	ids := addRuns(t, d, puzzle.ID, config, exp, sudokulab.StatusSolved, sudokulab.StatusUnsolved, sudokulab.StatusSolved, sudokulab.StatusError)
	tab, err := db.RunTable(ctx, d, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(tab.Columns) != "[id experiment config puzzle_id seed status generations effort effort_unit restarts best_cost wall_seconds cpu_seconds finished_at]" || len(tab.Rows) != 4 {
		t.Fatalf("RunTable = %v", tab)
	}
	for i, row := range tab.Rows {
		if id := asInt(t, row[0]); id != ids[len(ids)-1-i] {
			t.Errorf("row %d has run %d, want newest first", i, id)
		}
	}
	for _, tt := range []struct {
		where string
		limit int
		want  []int64 // seeds
	}{
		{"status = 'solved'", 0, []int64{3, 1}},
		{"solved = 1 AND evaluations > 150", 0, []int64{3}},
		{"experiment = 'exp' AND config = 'ga'", 2, []int64{4, 3}},
		{"best_cost IS NULL OR wall_seconds < 0.6", 0, []int64{1}},
	} {
		tab, err := db.RunTable(ctx, d, tt.where, tt.limit)
		if err != nil {
			t.Fatalf("RunTable(%q): %v", tt.where, err)
		}
		var seeds []int64
		for _, row := range tab.Rows {
			seeds = append(seeds, asInt(t, row[4]))
		}
		if fmt.Sprint(seeds) != fmt.Sprint(tt.want) {
			t.Errorf("RunTable(%q, %d) seeds %v, want %v", tt.where, tt.limit, seeds, tt.want)
		}
	}
	for _, where := range []string{"no_such_column = 1", "status = 'solved'; DELETE FROM runs"} {
		_, err := db.RunTable(ctx, d, where, 0)
		wantCode(t, err, sudokulab.EINVALID)
	}
	if n := countOf(t, d, "SELECT COUNT(*) FROM runs"); n != 4 {
		t.Fatalf("%d runs left", n)
	}
}

func suiteExperimentReports(t *testing.T, d *db.DB) {
	ctx := context.Background()
	puzzle, config, exp := runFixture(t, d)
	other := fromSolution(t, 40)
	if _, _, err := db.AddPuzzle(ctx, d, other); err != nil {
		t.Fatal(err)
	}
	// A run recorded before the plan: linked at enqueue.
	addRuns(t, d, puzzle.ID, config, exp, sudokulab.StatusSolved)
	res, err := db.Enqueue(ctx, d, db.PlanSpec{ExperimentID: exp, PuzzleIDs: []int64{puzzle.ID, other.ID}, ConfigIDs: []int64{config},
		Seeds: []int64{1, 2, 3}, Budget: db.Budget{MaxGenerations: 100}}, nil)
	if err != nil || res.Planned != 6 || res.Added != 6 || res.Linked != 1 || res.Puzzles != 2 {
		t.Fatalf("Enqueue = %+v, %v", res, err)
	}
	items, err := db.ClaimWork(ctx, d, db.Claim{Worker: "w1", ExperimentID: exp, N: 2, Lease: time.Minute})
	if err != nil || len(items) != 2 {
		t.Fatalf("ClaimWork = %+v, %v", items, err)
	}
	err = d.WithTx(ctx, func(tx *sqlx.Tx) error {
		w := items[0]
		_, err := db.CompleteWork(ctx, tx, []db.FinishedWork{{WorkID: w.ID, Run: &sudokulab.Run{ExperimentID: exp, PuzzleID: w.PuzzleID,
			ConfigID: w.ConfigID, Seed: w.Seed, MaxGenerations: w.MaxGenerations, Status: sudokulab.StatusUnsolved, Evaluations: 50, Host: "h9"}}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	detail, err := db.ExperimentDetail(ctx, d, "exp")
	if err != nil || len(detail.Rows) != 1 {
		t.Fatalf("ExperimentDetail = %v, %v", detail, err)
	}
	row := rowMap(detail.Columns, detail.Rows[0])
	wantInts := map[string]int64{"pending": 3, "running": 1, "lapsed": 0, "abandoned": 0, "done": 2, "puzzles": 1, "runs": 2, "solved": 1, "errors": 0}
	for col, want := range wantInts {
		if got := asInt(t, row[col]); got != want {
			t.Errorf("ExperimentDetail %s = %d, want %d (row %v)", col, got, want, row)
		}
	}
	if row["config"] != "ga" || row["solver"] != "ga" || asFloat(t, row["success_pct"]) != 50 || asFloat(t, row["mean_evaluations_solved"]) != 100 {
		t.Errorf("ExperimentDetail row %v", row)
	}
	if tab, err := db.ExperimentDetail(ctx, d, "nope"); err != nil || len(tab.Rows) != 0 {
		t.Fatalf("ExperimentDetail of an unknown experiment = %v, %v", tab, err)
	}
	list, err := db.ExperimentTable(ctx, d)
	if err != nil || len(list.Rows) != 1 {
		t.Fatalf("ExperimentTable = %v, %v", list, err)
	}
	row = rowMap(list.Columns, list.Rows[0])
	for col, want := range map[string]int64{"configs": 1, "puzzles": 1, "planned": 6, "runs": 2, "solved": 1} {
		if got := asInt(t, row[col]); got != want {
			t.Errorf("ExperimentTable %s = %d, want %d (row %v)", col, got, want, row)
		}
	}
	hosts, err := db.ExperimentHosts(ctx, d, "exp")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, r := range hosts.Rows {
		m := rowMap(hosts.Columns, r)
		lines = append(lines, fmt.Sprintf("%v/%v/%d/%d", m["host"], m["worker"], asInt(t, m["runs_recorded"]), asInt(t, m["running"])))
	}
	if fmt.Sprint(lines) != "[/w1/0/1 h0//1/0 h9//1/0]" {
		t.Errorf("ExperimentHosts = %v", lines)
	}
	left, err := db.RemainingWork(ctx, d, exp, 0)
	if err != nil || left != (db.WorkLeft{Pending: 3, Running: 1}) {
		t.Fatalf("RemainingWork = %+v, %v", left, err)
	}
	if n, err := db.CountPlanPuzzles(ctx, d, db.PlanSpec{Where: "givens >= 40"}); err != nil || n != 1 {
		t.Fatalf("CountPlanPuzzles = %d, %v", n, err)
	}
}

func suiteQueryReadOnly(t *testing.T, d *db.DB) {
	ctx := context.Background()
	insert := "INSERT INTO collections (name) VALUES ('by-hand')"
	for _, tt := range []struct {
		name, query string
		readOnly    bool // refused as a change (ErrReadOnly)
	}{
		{"insert", insert, true},
		{"update", "UPDATE collections SET name = 'x'", true},
		{"create", "CREATE TABLE t (x INTEGER)", true},
		{"script", "SELECT 1; " + insert, false},
		{"switching back", "SET TRANSACTION READ WRITE; " + insert, false},
		{"bad sql", "SELEC 1", false},
		{"no such table", "SELECT * FROM nope", false},
	} {
		_, _, err := d.Query(ctx, tt.query, false)
		if sudokulab.ErrorCode(err) != sudokulab.EINVALID || !strings.HasPrefix(err.Error(), "sql: ") {
			t.Errorf("%s: error %v, want EINVALID \"sql: ...\"", tt.name, err)
			continue
		}
		if tt.readOnly && !errors.Is(err, db.ErrReadOnly) {
			t.Errorf("%s: error %v, want ErrReadOnly in its chain", tt.name, err)
		}
	}
	if _, err := d.ReadQuery(ctx, insert); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Errorf("ReadQuery of an insert: %v", err)
	}
	if n := countOf(t, d, "SELECT COUNT(*) FROM collections"); n != 0 {
		t.Fatalf("read-only SQL wrote %d collections", n)
	}
	if _, _, err := d.Query(ctx, insert, true); err != nil {
		t.Fatal(err)
	}
	cols, rows, err := d.Query(ctx, "SELECT name, 'hi' AS b, 1.5 AS f, NULL AS n, 7 AS i FROM collections", false)
	if err != nil || strings.Join(cols, ",") != "name,b,f,n,i" || len(rows) != 1 {
		t.Fatalf("Query = %v %v, %v", cols, rows, err)
	}
	if r := rows[0]; r[0] != "by-hand" || r[1] != "hi" || asFloat(t, r[2]) != 1.5 || r[3] != nil || asInt(t, r[4]) != 7 {
		t.Errorf("row %#v", r)
	}
	tab, err := d.ReadQuery(ctx, "SELECT COUNT(*) AS n FROM collections WHERE name = ? AND ? > 1", "by-hand", 2)
	if err != nil || len(tab.Rows) != 1 || asInt(t, tab.Rows[0][0]) != 1 {
		t.Fatalf("ReadQuery = %v, %v", tab, err)
	}
	// The read-only switch does not leak into the pool: every connection
	// writes again.
	for i := range 3 * 4 {
		if _, _, err := d.Query(ctx, "SELECT 1", false); err != nil {
			t.Fatal(err)
		}
		if _, _, err := d.Query(ctx, insert, false); err == nil {
			t.Fatal("a read-only query wrote")
		}
		if _, err := db.EnsureCollection(ctx, d, "c"+string(rune('a'+i)), ""); err != nil {
			t.Fatalf("write after read-only query: %v", err)
		}
	}
}

func suiteReopen(t *testing.T, d *db.DB, b backend) {
	ctx := context.Background()
	if v, err := d.Version(ctx); err != nil || v != d.LatestVersion() {
		t.Fatalf("Version = %d, %v; want %d", v, err, d.LatestVersion())
	}
	st, err := d.MigrateStatus(ctx)
	if err != nil || len(st) == 0 || st[0].Source != "00001_initial.sql" || !st[len(st)-1].Applied {
		t.Fatalf("MigrateStatus = %+v, %v", st, err)
	}
	if _, err := db.EnsureCollection(ctx, d, "kept", ""); err != nil {
		t.Fatal(err)
	}
	// Opening again migrates nothing.
	again, err := db.Open(ctx, d.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if res, err := again.MigrateUp(ctx); err != nil || len(res) != 0 {
		t.Fatalf("MigrateUp on an up-to-date database = %v, %v", res, err)
	}
	ro, err := db.OpenOptions(ctx, d.Path(), db.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if err := ro.CheckVersion(ctx); err != nil {
		t.Fatal(err)
	}
	if cols, err := db.ListCollections(ctx, ro); err != nil || len(cols) != 1 {
		t.Fatalf("ListCollections read-only = %v, %v", cols, err)
	}
	if _, err := db.EnsureCollection(ctx, ro, "x", ""); err == nil {
		t.Fatal("a read-only database accepted a write")
	}
	_, err = db.OpenOptions(ctx, b.missing(t), db.Options{MustExist: true})
	wantCode(t, err, sudokulab.ENOTFOUND)
	_, err = db.OpenOptions(ctx, b.missing(t), db.Options{ReadOnly: true})
	wantCode(t, err, sudokulab.ENOTFOUND)
}

// rowMap maps a table row by column name.
func rowMap(cols []string, row []any) map[string]any {
	m := map[string]any{}
	for i, c := range cols {
		m[c] = row[i]
	}
	return m
}

// asInt reads an integer column: an int64 from either engine, or the text
// of PostgreSQL's numeric (the type of SUM over BIGINT).
func asInt(t testing.TB, v any) int64 {
	t.Helper()
	switch v := v.(type) {
	case int64:
		return v
	case int32:
		return int64(v)
	case float64:
		if v == math.Trunc(v) {
			return int64(v)
		}
	case string:
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return n
		}
	}
	t.Fatalf("%#v (%T) is not an integer", v, v)
	return 0
}

// asFloat reads a number column: SQLite's REAL, or PostgreSQL's numeric
// as text.
func asFloat(t testing.TB, v any) float64 {
	t.Helper()
	switch v := v.(type) {
	case int64:
		return float64(v)
	case float64:
		return v
	case string:
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return f
		}
	}
	t.Fatalf("%#v (%T) is not a number", v, v)
	return 0
}

// collectionRows returns the puzzles of a collection in order as
// "id:label" strings.
func collectionRows(t *testing.T, d *db.DB, name string) []string {
	t.Helper()
	tab, err := db.CollectionTable(context.Background(), d, name, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i, r := range tab.Rows {
		if pos := asInt(t, r[0]); pos != int64(i+1) {
			t.Fatalf("%s: row %d at position %d", name, i, pos)
		}
		out = append(out, fmt.Sprintf("%d:%v", asInt(t, r[1]), r[2]))
	}
	return out
}

func suiteFreezeOrderLabelsReplace(t *testing.T, d *db.DB) {
	ctx := context.Background()
	ids := seedCatalog(t, d)
	at := func(g int, label string) string { return fmt.Sprintf("%d:%s", ids[g], label) }
	for _, tt := range []struct {
		name string
		f    db.Freeze
		want []string
	}{
		// The order of the collections the puzzles come from, with their
		// labels there; puzzles in no collection last.
		{"default", db.Freeze{Where: "givens IN (21, 28, 26)"}, []string{at(26, "e26"), at(28, "e28"), at(21, "")}},
		{"by-collection", db.Freeze{Where: "collection = 'many' AND givens < 29"},
			[]string{at(25, "m;25"), at(26, "m;26"), at(27, "m;27"), at(28, "m;28")}},
		{"ordered", db.Freeze{Where: "collection = 'many' AND givens < 29", OrderBy: "givens DESC", Label: "'g' || givens"},
			[]string{at(28, "g28"), at(27, "g27"), at(26, "g26"), at(25, "g25")}},
	} {
		n, err := db.FreezeCollection(ctx, d, tt.name, tt.f)
		if err != nil || n != len(tt.want) {
			t.Fatalf("%s: FreezeCollection = %d, %v; want %d", tt.name, n, err, len(tt.want))
		}
		if got := collectionRows(t, d, tt.name); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
		if c, err := db.GetCollection(ctx, d, tt.name); err != nil || !c.Frozen {
			t.Errorf("%s: %+v, %v; want frozen", tt.name, c, err)
		}
	}
	// Replacing may select from the collection itself.
	n, err := db.FreezeCollection(ctx, d, "ordered", db.Freeze{Replace: true, Where: "collection = 'ordered' AND givens > 26", OrderBy: "position DESC"})
	if err != nil || n != 2 {
		t.Fatalf("replace: %d, %v", n, err)
	}
	if got, want := collectionRows(t, d, "ordered"), []string{at(27, "g27"), at(28, "g28")}; !slices.Equal(got, want) {
		t.Errorf("replaced: %v, want %v", got, want)
	}
	_, err = db.FreezeCollection(ctx, d, "ordered", db.Freeze{Where: "1 = 1"})
	wantCode(t, err, sudokulab.ECONFLICT)
	_, err = db.FreezeCollection(ctx, d, "bad-order", db.Freeze{OrderBy: "no_such_column"})
	wantCode(t, err, sudokulab.EINVALID)
	if c, _ := db.GetCollection(ctx, d, "even"); c.Frozen {
		t.Error("a collection made otherwise is frozen")
	}
}

func suiteImportedRatingsBesideComputed(t *testing.T, d *db.DB) {
	ctx := context.Background()
	ids := seedCatalog(t, d)
	f := func(v float64) *float64 { return &v }
	if err := db.UpsertRating(ctx, d, sudokulab.Rating{PuzzleID: ids[20], Rater: "human", RaterVersion: "4", Value: f(3456.5), Label: "unfair", Details: `{"steps":9}`}); err != nil {
		t.Fatal(err)
	}
	write := func(importID int64, g int, rs ...sudokulab.Rating) (kept int) {
		t.Helper()
		rows := []db.ImportRow{{Puzzle: fromSolution(t, g), Ratings: rs, Membership: sudokulab.Membership{CollectionID: 0}}}
		c, err := db.GetCollection(ctx, d, "even")
		if err != nil {
			t.Fatal(err)
		}
		rows[0].Membership.CollectionID = c.ID
		if err := d.WithTx(ctx, func(tx *sqlx.Tx) error {
			w := d.ImportWriter(tx)
			defer w.Close()
			err := w.Write(ctx, rows)
			kept = w.KeptRatings
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return kept
	}
	imported := func(rater string, v float64, id int64) sudokulab.Rating {
		return sudokulab.Rating{Rater: rater, RaterVersion: "imported", Value: f(v), ImportID: id}
	}
	ratings := func() string {
		t.Helper()
		rs, err := db.PuzzleRatings(ctx, d, ids[20])
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rs {
			out = append(out, fmt.Sprintf("%s=%v/%s/%s/%d", r.Rater, *r.Value, r.Label, r.Details, r.ImportID))
		}
		return strings.Join(out, " ")
	}
	computed := "human=3456.5/unfair/{\"steps\":9}/0"
	// The lab's own value, named as a file names it, or under the lab's
	// name: nothing changes.
	write(7, 20, imported("file:human", 3456.5, 7), imported("human", 1, 7))
	if got := ratings(); got != computed {
		t.Errorf("after the lab's own value: %s, want %s", got, computed)
	}
	// Another value is the file's claim, beside ours; the same claim again
	// changes nothing (not even its import), nor does another file's value
	// of the same claim, which the writer counts.
	write(8, 20, imported("file:human", 5000, 8), imported("se-er", 7.2, 8))
	want := "file:human=5000///8 " + computed + " se-er=7.2///8"
	if got := ratings(); got != want {
		t.Errorf("after a claim: %s, want %s", got, want)
	}
	write(9, 20, imported("se-er", 7.2, 9))
	if got := ratings(); got != want {
		t.Errorf("after the same claim: %s, want %s", got, want)
	}
	if kept := write(9, 20, imported("se-er", 7.3, 9)); kept != 1 {
		t.Errorf("another value of a claim: %d kept, want 1", kept)
	}
	if got := ratings(); got != want {
		t.Errorf("after another value: %s, want %s", got, want)
	}
	// A new puzzle takes the file's ratings as they come.
	write(9, 21, imported("se-er", 1.5, 9))
	if n := countOf(t, d, "SELECT COUNT(*) FROM ratings WHERE import_id = 9"); n != 1 {
		t.Errorf("%d ratings of import 9, want 1", n)
	}
	// A rating computed here (generate's) replaces the puzzle's rating by
	// its rater, as rate does.
	write(0, 20, sudokulab.Rating{Rater: "human", RaterVersion: "5", Value: f(3500), Label: "unfair"})
	if got, want := ratings(), "file:human=5000///8 human=3500/unfair//0 se-er=7.2///8"; got != want {
		t.Errorf("after a computed rating: %s, want %s", got, want)
	}
	if got, want := db.FileRater("human", []string{"givens", "human"}), "file:human"; got != want {
		t.Errorf("FileRater(human) = %q, want %q", got, want)
	}
	if got := db.FileRater("se-er", []string{"givens", "human"}); got != "se-er" {
		t.Errorf("FileRater(se-er) = %q", got)
	}
	// rating_table names each rating's import, and leaves out the
	// ratings of an import still loading.
	if n := countOf(t, d, "SELECT COUNT(*) FROM rating_table WHERE import_id = 8"); n != 2 {
		t.Errorf("rating_table: %d ratings of import 8, want 2", n)
	}
	im := &sudokulab.Import{FileName: "loading.csv", FileSHA256: strings.Repeat("ef", 32), Format: "csv"}
	l, err := db.BeginImport(ctx, d, im, "{}", "test:1", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	write(l.ID, 23, imported("se-er", 3, l.ID))
	if n, all := countOf(t, d, "SELECT COUNT(*) FROM rating_table WHERE import_id = ?", l.ID), countOf(t, d, "SELECT COUNT(*) FROM ratings WHERE import_id = ?", l.ID); n != 0 || all != 1 {
		t.Errorf("rating_table shows %d of the %d ratings of a loading import, want none", n, all)
	}
	// A rating rate or merge would refuse is refused here too, and its
	// transaction stores nothing.
	c, err := db.GetCollection(ctx, d, "even")
	if err != nil {
		t.Fatal(err)
	}
	before := countOf(t, d, "SELECT COUNT(*) FROM ratings")
	for _, bad := range []sudokulab.Rating{imported("", 1, 10), imported("a\nb", 1, 10), {Rater: "human", RaterVersion: "5", Value: f(math.NaN())}} {
		err := writeImportRows(d, []db.ImportRow{{Puzzle: fromSolution(t, 22), Ratings: []sudokulab.Rating{imported("se-er", 2, 10), bad},
			Membership: sudokulab.Membership{CollectionID: c.ID}}})
		if err == nil || sudokulab.ErrorCode(err) != sudokulab.EINVALID {
			t.Errorf("rating by %q valued %v: error %v, want EINVALID", bad.Rater, *bad.Value, err)
		}
	}
	if n := countOf(t, d, "SELECT COUNT(*) FROM ratings"); n != before {
		t.Errorf("%d ratings after refused writes, want %d", n, before)
	}
}

func suiteImportLeavesFrozenCollections(t *testing.T, d *db.DB) {
	ctx := context.Background()
	ids := seedCatalog(t, d)
	if _, err := db.FreezeCollection(ctx, d, "bench", db.Freeze{Where: "collection = 'even' AND givens < 26"}); err != nil {
		t.Fatal(err)
	}
	bench, err := db.GetCollection(ctx, d, "bench")
	if err != nil {
		t.Fatal(err)
	}
	before := collectionRows(t, d, "bench")
	write := func(addToFrozen bool, gs ...int) []db.ImportRow {
		t.Helper()
		var rows []db.ImportRow
		for _, g := range gs {
			rows = append(rows, db.ImportRow{Puzzle: fromSolution(t, g), Membership: sudokulab.Membership{CollectionID: bench.ID, Label: "new"}})
		}
		if err := d.WithTx(ctx, func(tx *sqlx.Tx) error {
			w := d.ImportWriter(tx)
			defer w.Close()
			w.AddToFrozen = addToFrozen
			return w.Write(ctx, rows)
		}); err != nil {
			t.Fatal(err)
		}
		return rows
	}
	rows := write(false, 20, 27, 40)
	if got := collectionRows(t, d, "bench"); !slices.Equal(got, before) {
		t.Errorf("an import changed frozen collection bench: %v, want %v", got, before)
	}
	for i, frozen := range []bool{false, true, true} {
		if rows[i].Frozen != frozen || rows[i].Added {
			t.Errorf("row %d: frozen %v added %v, want frozen %v", i, rows[i].Frozen, rows[i].Added, frozen)
		}
	}
	// The rows left out go where the caller says.
	other, err := db.EnsureCollection(ctx, d, "other", "")
	if err != nil {
		t.Fatal(err)
	}
	out := []db.ImportRow{rows[1], rows[2]}
	for i := range out {
		out[i].Membership.CollectionID = other
	}
	if err := d.WithTx(ctx, func(tx *sqlx.Tx) error {
		w := d.ImportWriter(tx)
		defer w.Close()
		return w.AddMemberships(ctx, out)
	}); err != nil {
		t.Fatal(err)
	}
	if got, want := collectionRows(t, d, "other"), []string{fmt.Sprintf("%d:new", ids[27]), fmt.Sprintf("%d:new", rows[2].Puzzle.ID)}; !slices.Equal(got, want) {
		t.Errorf("other: %v, want %v", got, want)
	}
	// When asked, the import adds to it.
	write(true, 27)
	if got, want := collectionRows(t, d, "bench"), append(before, fmt.Sprintf("%d:new", ids[27])); !slices.Equal(got, want) {
		t.Errorf("bench with --add-to-frozen: %v, want %v", got, want)
	}
}

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

func intp(n int) *int { return &n }

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
