package db_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers"
)

// hostileCase is a source lab spoiled by SQL: what the checks must say
// about it, and a query on the destination that counts what must not
// arrive.
type hostileCase struct {
	name string
	// change runs on one connection of the source, in order.
	change []string
	// table, row and reason are what the refusal names.
	table, row, reason string
	// kind counts the invalid row in the report of a merge that skips it.
	kind string
	// absent counts, in the destination, the rows that must not arrive.
	absent string
	// unreadable rows are refused even with SkipInvalid, with refusal in
	// the message.
	unreadable bool
	refusal    string
	// sqliteOnly cases spoil what PostgreSQL does not let be stored;
	// postgres is the change on a PostgreSQL source where it differs.
	sqliteOnly bool
	postgres   []string
}

// hostileCases spoils the lab of the merge tests (with its runs) in each
// way a lab file written by others could be wrong.
func hostileCases(t *testing.T) []hostileCase {
	// A solution of sato-no1 (puzzle 3) with one empty cell of the
	// puzzle given the value of its neighbour: the givens are kept, a
	// row repeats a digit.
	pp := paperdata.MustGet("sato-no1")
	bad := pp.Solution.Clone()
	for i, v := range pp.Puzzle.Cells {
		if v == 0 {
			bad.Cells[i] = bad.Cells[i^1]
			break
		}
	}
	// The givens of sato-no11 with a digit repeated in the first row.
	twice := paperdata.MustGet("sato-no11").Puzzle.Clone()
	first := -1
	for i := range 9 {
		if twice.Cells[i] != 0 {
			if first >= 0 {
				twice.Cells[i] = twice.Cells[first]
				break
			}
			first = i
		}
	}
	return []hostileCase{
		{
			name:   "solution breaks the rules",
			change: []string{fmt.Sprintf(`UPDATE puzzles SET solution = '%s' WHERE id = 3`, bad)},
			table:  "puzzles", row: "3", reason: "wrong solution: solution breaks the rules",
			kind:   db.MergePuzzles,
			absent: fmt.Sprintf(`SELECT COUNT(*) FROM puzzles WHERE grid = '%s'`, pp.Puzzle),
		},
		{
			name:   "givens break the rules",
			change: []string{fmt.Sprintf(`UPDATE puzzles SET grid = '%s', solution = NULL, solution_count = NULL WHERE id = 4`, twice)},
			table:  "puzzles", row: "4", reason: "givens break the rules",
			kind:   db.MergePuzzles,
			absent: fmt.Sprintf(`SELECT COUNT(*) FROM puzzles WHERE grid = '%s'`, twice),
		},
		{
			name:   "grid not in canonical form",
			change: []string{`UPDATE puzzles SET grid = replace(grid, '.', '0') WHERE id = 1`},
			table:  "puzzles", row: "1", reason: "is not in canonical form",
			kind:   db.MergePuzzles,
			absent: `SELECT COUNT(*) FROM puzzles WHERE grid LIKE '%0%'`,
		},
		{
			name:   "givens that are not the grid's",
			change: []string{`UPDATE puzzles SET givens = 3 WHERE id = 2`},
			table:  "puzzles", row: "2", reason: "givens 3, but the grid has",
			kind:   db.MergePuzzles,
			absent: `SELECT COUNT(*) FROM puzzles WHERE givens = 3`,
		},
		{
			name: "solved run whose final grid is no solution",
			change: []string{`UPDATE runs SET final_grid = (SELECT grid FROM puzzles p WHERE p.id = runs.puzzle_id)
				WHERE id = (SELECT MIN(id) FROM runs WHERE status = 'solved')`},
			table: "runs", row: "", reason: "solved, but the final grid is no solution",
			kind:   db.MergeRuns,
			absent: `SELECT COUNT(*) FROM runs r JOIN puzzles p ON p.id = r.puzzle_id WHERE r.final_grid = p.grid`,
		},
		{
			name: "configuration of an unknown solver",
			change: []string{fmt.Sprintf(`UPDATE configs SET solver = 'no-such-solver', params = '{}', params_hash = '%s' WHERE name = 'exact'`,
				sudokulab.ConfigParamsHash("no-such-solver", "{}"))},
			table: "configs", row: "", reason: `solver "no-such-solver" is not one this program runs`,
			kind:   db.MergeConfigs,
			absent: `SELECT COUNT(*) FROM configs WHERE solver = 'no-such-solver'`,
		},
		{
			name:   "final grid that is no grid",
			change: []string{`UPDATE runs SET final_grid = 'xyz' WHERE id = 2`},
			table:  "runs", row: "2", reason: `final grid "xyz": `,
			kind:   db.MergeRuns,
			absent: `SELECT COUNT(*) FROM runs WHERE final_grid = 'xyz'`,
		},
		{
			name:   "timestamp that is no time",
			change: []string{`UPDATE runs SET started_at = 'yesterday' WHERE id = 1`},
			table:  "runs", row: "1", reason: `started_at: timestamp "yesterday" is not RFC 3339`,
			kind:   db.MergeRuns,
			absent: `SELECT COUNT(*) FROM runs WHERE started_at = 'yesterday'`,
		},
		{
			name:   "rating options that are not JSON",
			change: []string{`UPDATE ratings SET options = '{not json' WHERE puzzle_id = 2`},
			table:  "ratings", row: "2", reason: "options are not a JSON object",
			kind:   db.MergeRatings,
			absent: `SELECT COUNT(*) FROM ratings WHERE options = '{not json'`,
		},
		{
			name:     "tag with a line break",
			change:   []string{`UPDATE puzzle_tags SET tag = 'a' || char(10) || 'b' WHERE puzzle_id = 2`},
			postgres: []string{`UPDATE puzzle_tags SET tag = 'a' || chr(10) || 'b' WHERE puzzle_id = 2`},
			table:    "puzzle_tags", row: `puzzle 2, tag "a\nb"`, reason: "holds a control character",
			kind:   db.MergeTags,
			absent: `SELECT COUNT(*) FROM puzzle_tags WHERE length(tag) = 3`,
		},
		{
			name:     "tag too long",
			change:   []string{`UPDATE puzzle_tags SET tag = hex(zeroblob(1000)) WHERE puzzle_id = 1`},
			postgres: []string{`UPDATE puzzle_tags SET tag = repeat('00', 1000) WHERE puzzle_id = 1`},
			table:    "puzzle_tags", row: `puzzle 1, tag "000`, reason: "tag is 2000 bytes long, more than 1024",
			kind:   db.MergeTags,
			absent: `SELECT COUNT(*) FROM puzzle_tags WHERE length(tag) > 100`,
		},
		{
			// The destination's CHECK would refuse it only after the
			// earlier kinds committed.
			name:   "empty tag",
			change: []string{`PRAGMA ignore_check_constraints = ON`, `UPDATE puzzle_tags SET tag = '' WHERE puzzle_id = 5`},
			table:  "puzzle_tags", row: `puzzle 5, tag ""`, reason: "tag is empty", sqliteOnly: true,
			kind:   db.MergeTags,
			absent: `SELECT COUNT(*) FROM puzzle_tags WHERE tag = ''`,
		},
		{
			// Over sudokulab.MaxLabelBytes, within what PostgreSQL's
			// index on label takes (a B-tree entry of at most 2,704
			// bytes), so that both engines store it.
			name:     "label too long",
			change:   []string{`UPDATE collection_puzzles SET label = hex(zeroblob(1000)) WHERE puzzle_id = 5`},
			postgres: []string{`UPDATE collection_puzzles SET label = repeat('00', 1000) WHERE puzzle_id = 5`},
			table:    "collection_puzzles", row: "collection 1, puzzle 5", reason: "label is 2000 bytes long, more than 1024",
			kind:   db.MergeMemberships,
			absent: `SELECT COUNT(*) FROM collection_puzzles WHERE length(label) > 1000`,
		},
		{
			// A label PostgreSQL's index cannot hold: SQLite's only.
			name:   "20 MB label",
			change: []string{`UPDATE collection_puzzles SET label = hex(zeroblob(10000000)) WHERE puzzle_id = 5`},
			table:  "collection_puzzles", row: "collection 1, puzzle 5", reason: "label is 20000000 bytes long, more than 1024",
			kind:   db.MergeMemberships,
			absent: `SELECT COUNT(*) FROM collection_puzzles WHERE length(label) > 1000`, sqliteOnly: true,
		},
		{
			// SQLite can be told to store it; the destination's CHECK
			// would refuse it only after the earlier kinds committed.
			name: "CHECK-violating run status",
			change: []string{`PRAGMA ignore_check_constraints = ON`,
				`UPDATE runs SET status = 'finished' WHERE id = (SELECT MAX(id) FROM runs WHERE status <> 'solved')`},
			table: "runs", row: "", reason: `status "finished"`, sqliteOnly: true,
			kind:   db.MergeRuns,
			absent: `SELECT COUNT(*) FROM runs WHERE status = 'finished'`,
		},
		{
			name:   "text in an integer column",
			change: []string{`UPDATE runs SET seed = 'abc' WHERE id = 2`},
			table:  "runs", row: "2", reason: `seed holds text "abc", not INTEGER`,
			unreadable: true, sqliteOnly: true,
			refusal: "the source holds values of the wrong type, which cannot be read, so nothing was merged: ",
		},
	}
}

// spoil applies the change of tc to the lab file at path, on one
// connection (a pragma holds for its connection only).
func spoil(t *testing.T, path string, change []string) {
	t.Helper()
	ctx := context.Background()
	d := mergeOpen(t, path)
	conn, err := d.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range change {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	conn.Close()
	d.Close()
}

// TestMergeRefusesInvalidSource merges each hostile lab into a fresh
// destination on each backend: the merge is refused with the table, row
// and reason, and the destination stays empty; with SkipInvalid the rest
// is merged without the invalid row, which the report lists.
func TestMergeRefusesInvalidSource(t *testing.T) {
	ctx := context.Background()
	base := newMergeLab(t)
	base.execute(t, base.plan(1))
	cases := hostileCases(t)
	sources := make([]string, len(cases))
	for i, tc := range cases {
		src := base.copyTo(t, fmt.Sprintf("src-%d.db", i))
		spoil(t, src.path, tc.change)
		sources[i] = src.path
	}
	forEachBackend(t, func(t *testing.T, b backend) {
		for i, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				src := mergeOpenRead(t, sources[i])
				opts := db.MergeOptions{Solvers: solvers.Default()}
				dst := b.open(t)
				before := tableCounts(t, dst)
				rep, err := db.Merge(ctx, dst, src, opts)
				wantCode(t, err, sudokulab.EINVALID)
				want := tc.table + " " + tc.row
				refusal := "1 row of the source fails the checks, so nothing was merged: "
				if tc.refusal != "" {
					refusal = tc.refusal
				}
				if !strings.Contains(err.Error(), refusal+want) ||
					!strings.Contains(err.Error(), tc.reason) {
					t.Errorf("refusal %q: want it to name %q and %q", err, want, tc.reason)
				}
				if got := tableCounts(t, dst); fmt.Sprint(got) != fmt.Sprint(before) {
					t.Errorf("the refused merge wrote: row counts %v, before %v", got, before)
				}
				if len(rep.Invalid) != 1 || rep.Invalid[0].Table != tc.table || !strings.Contains(rep.Invalid[0].Reason, tc.reason) {
					t.Errorf("report lists %+v, want one row of %s: %s", rep.Invalid, tc.table, tc.reason)
				}

				opts.SkipInvalid = true
				rep, err = db.Merge(ctx, dst, src, opts)
				if tc.unreadable {
					wantCode(t, err, sudokulab.EINVALID)
					if !rep.Unreadable {
						t.Error("report not marked unreadable")
					}
					if got := tableCounts(t, dst); fmt.Sprint(got) != fmt.Sprint(before) {
						t.Errorf("the refused merge wrote: row counts %v, before %v", got, before)
					}
					return
				}
				if err != nil {
					t.Fatalf("merge skipping the invalid row: %v", err)
				}
				if len(rep.Invalid) != 1 || !strings.Contains(rep.Invalid[0].String(), want) {
					t.Errorf("report lists %+v, want %s", rep.Invalid, want)
				}
				if c := rep.Count(tc.kind); c.Invalid != 1 {
					t.Errorf("%s counted %+v, want 1 invalid", tc.kind, c)
				}
				if n := countOf(t, dst, tc.absent); n != 0 {
					t.Errorf("%s = %d in the destination, want 0", tc.absent, n)
				}
				if n := countOf(t, dst, `SELECT COUNT(*) FROM runs`); n == 0 {
					t.Error("no run merged beside the invalid row")
				}
				if n := countOf(t, dst, `SELECT COUNT(*) FROM puzzles`); n < 4 {
					t.Errorf("%d puzzles merged, want the valid ones", n)
				}
			})
		}
	})
}

// TestMergeRefusesInvalidPostgresSource spoils a PostgreSQL copy of the
// lab in each way PostgreSQL lets be stored, and merges it into a SQLite
// file: refused, and nothing written.
func TestMergeRefusesInvalidPostgresSource(t *testing.T) {
	ctx := context.Background()
	base := newMergeLab(t)
	base.execute(t, base.plan(1))
	for _, tc := range hostileCases(t) {
		if tc.sqliteOnly {
			continue // PostgreSQL's constraints and types refuse the change itself
		}
		t.Run(tc.name, func(t *testing.T) {
			src := openPostgres(t)
			mergeFiles(t, src, base.path)
			change := tc.change
			if tc.postgres != nil {
				change = tc.postgres
			}
			for _, q := range change {
				if _, err := src.ExecContext(ctx, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			dst := openTemp(t)
			before := tableCounts(t, dst)
			_, err := db.Merge(ctx, dst, src, db.MergeOptions{Solvers: solvers.Default()})
			wantCode(t, err, sudokulab.EINVALID)
			if want := tc.table + " " + tc.row; !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), tc.reason) {
				t.Errorf("refusal %q: want it to name %q and %q", err, want, tc.reason)
			}
			if got := tableCounts(t, dst); fmt.Sprint(got) != fmt.Sprint(before) {
				t.Errorf("the refused merge wrote: row counts %v, before %v", got, before)
			}
		})
	}
}

// TestImportNotesBounded finishes an import with notes longer than
// sudokulab.MaxTextBytes (a file noting each of many lines): the stored
// notes stop short of it, saying so, and the lab merges (merge refuses
// longer notes).
func TestImportNotesBounded(t *testing.T) {
	ctx := context.Background()
	var b strings.Builder
	for i := 0; b.Len() < 2*sudokulab.MaxTextBytes; i++ {
		fmt.Fprintf(&b, "line %d: header \"Ω\" ignored\n", i+1)
	}
	d := openTemp(t)
	im := &sudokulab.Import{FileName: "notes.txt", FileSHA256: strings.Repeat("ab", 32), Format: "line", Notes: b.String()}
	if _, err := db.InsertImport(ctx, d, im); err != nil {
		t.Fatal(err)
	}
	full := b.String() + "the last note"
	im.Notes = full
	if err := db.FinishImport(ctx, d, im); err != nil {
		t.Fatal(err)
	}
	var notes string
	if err := d.GetContext(ctx, &notes, `SELECT notes FROM imports`); err != nil {
		t.Fatal(err)
	}
	kept, _, _ := strings.Cut(notes, "\n... and ")
	if want := fmt.Sprintf("%s\n... and %d more bytes of notes, not kept", kept, len(full)-len(kept)); len(notes) > sudokulab.MaxTextBytes || notes != want || !strings.HasPrefix(full, kept+"\n") {
		t.Errorf("notes of %d bytes ending %q", len(notes), notes[max(0, len(notes)-80):])
	}
	if _, err := db.Merge(ctx, openTemp(t), d, db.MergeOptions{}); err != nil {
		t.Errorf("merge: %v", err)
	}
}

// TestWritesChecked gives the functions that create collections,
// experiments, configurations, memberships and ratings what merge would
// refuse: each is an EINVALID error, so that no lab a command wrote fails
// merge's checks.
func TestWritesChecked(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	long := strings.Repeat("n", sudokulab.MaxNameBytes+1)
	label := strings.Repeat("l", sudokulab.MaxLabelBytes+1)
	p := sudokulab.Puzzle{Givens: paperdata.MustGet("sato-no1").Puzzle}
	col, err := db.EnsureCollection(ctx, d, "c", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.AddPuzzle(ctx, d, &p); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		fn   func() error
	}{
		{"collection with a line break", func() error { _, err := db.EnsureCollection(ctx, d, "a\nb", ""); return err }},
		{"experiment too long", func() error { _, err := db.EnsureExperiment(ctx, d, long, ""); return err }},
		{"collection description too long", func() error {
			_, err := db.EnsureCollection(ctx, d, "c", strings.Repeat("d", sudokulab.MaxTextBytes+1))
			return err
		}},
		{"configuration name not UTF-8", func() error {
			_, _, err := db.EnsureConfig(ctx, d, &sudokulab.Config{Name: "\xff", Solver: "exact"})
			return err
		}},
		{"membership label too long", func() error {
			return db.AddMembership(ctx, d, sudokulab.Membership{CollectionID: col, PuzzleID: p.ID, Label: label})
		}},
		{"rating label too long", func() error {
			return db.UpsertRating(ctx, d, sudokulab.Rating{PuzzleID: p.ID, Rater: "r", Label: label})
		}},
		{"rating value infinite", func() error {
			inf := math.Inf(1)
			return db.UpsertRating(ctx, d, sudokulab.Rating{PuzzleID: p.ID, Rater: "r", Value: &inf})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { wantCode(t, tt.fn(), sudokulab.EINVALID) })
	}
}
