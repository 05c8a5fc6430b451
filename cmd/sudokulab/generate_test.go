package main

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sudokulab/raters"
	"sudokulab/solvers"
)

// TestGenerate stores generated puzzles with their provenance and checks
// that a seed gives the same puzzles whatever the number of jobs.
func TestGenerate(t *testing.T) {
	dbPath := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	out := mustRun(t, "--db", dbPath, "generate", "--count", "30", "--collection", "a", "--seed", "5",
		"--symmetry", "rot180", "--minimal", "--jobs", "1")
	if !strings.Contains(out, "generated 30 puzzles into a (seed 5): 30 new, 0 already stored") {
		t.Fatalf("stdout %q", out)
	}
	mustRun(t, "--db", dbPath, "generate", "--count", "30", "--collection", "b", "--seed", "5",
		"--symmetry", "rot180", "--minimal", "--jobs", "3")
	same := mustRun(t, "--db", dbPath, "-O", "csv", "sql", `SELECT count(*) AS n FROM collection_puzzles a
		JOIN collection_puzzles b ON a.puzzle_id = b.puzzle_id AND a.position = b.position
		WHERE a.collection_id = (SELECT id FROM collections WHERE name = 'a')
		  AND b.collection_id = (SELECT id FROM collections WHERE name = 'b')`)
	if same != "n\n30\n" {
		t.Errorf("puzzles at the same position in a and b: %s", same)
	}
	prov := mustRun(t, "--db", dbPath, "-O", "csv", "sql", `SELECT cp.label, json_extract(cp.metadata, '$.seed') AS seed,
		json_extract(cp.metadata, '$.index') AS idx, json_extract(cp.metadata, '$.symmetry') AS sym,
		json_extract(cp.metadata, '$.generator_version') AS v, p.solution_count, p.count_status, p.givens > 0 AS g,
		p.symmetry_form IS NOT NULL AS f
		FROM collection_puzzles cp JOIN puzzles p ON p.id = cp.puzzle_id
		JOIN collections c ON c.id = cp.collection_id WHERE c.name = 'a' AND cp.position = 3`)
	if prov != "label,seed,idx,sym,v,solution_count,count_status,g,f\ngen-5-2,5,2,rot180,1,1,counted,1,1\n" {
		t.Errorf("provenance: %s", prov)
	}
	imports := mustRun(t, "--db", dbPath, "-O", "csv", "sql", `SELECT format, puzzles_read, puzzles_new, puzzles_duplicate,
		finished_at IS NOT NULL AS fin, instr(notes, '"minimal":true') > 0 AS opt, substr(notes, -4) AS state
		FROM imports ORDER BY id`)
	if imports != "format,puzzles_read,puzzles_new,puzzles_duplicate,fin,opt,state\ngenerate,30,30,0,1,1,done\ngenerate,30,0,30,1,1,done\n" {
		t.Errorf("imports: %s", imports)
	}
}

func TestGenerateRating(t *testing.T) {
	dbPath := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	mustRun(t, "--db", dbPath, "generate", "--count", "4", "--collection", "hard", "--seed", "1", "--minimal",
		"--rating", "human:hard..beyond")
	got := mustRun(t, "--db", dbPath, "-O", "csv", "sql", `SELECT count(*) AS n FROM puzzle_catalog c
		JOIN ratings r ON r.puzzle_id = c.id AND r.rater = 'human'
		JOIN rating_levels l ON l.rater = r.rater AND l.label = r.label
		WHERE c.collection = 'hard' AND l.level >= 3 AND r.import_id IS NULL`)
	if got != "n\n4\n" {
		t.Errorf("hard puzzles rated here: %s", got)
	}
	// A frozen collection gets no generated puzzles.
	mustRun(t, "--db", dbPath, "collections", "add", "frozen", "--where", "1 = 1")
	_, errOut, code := run(t, "--db", dbPath, "generate", "--count", "1", "--collection", "frozen", "--seed", "2")
	if code != exitInvalid || !strings.Contains(errOut, "collection frozen is frozen") {
		t.Errorf("generate into a frozen collection: exit %d, %q", code, errOut)
	}
	if got := mustRun(t, "--db", dbPath, "-O", "csv", "sql", "SELECT count(*) AS n FROM puzzles"); got != "n\n4\n" {
		t.Errorf("puzzles after a refused generate: %s", got)
	}
}

func TestGenerateErrors(t *testing.T) {
	dbPath := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no count", []string{"--collection", "x"}, exitInvalid, "--count N is required"},
		{"no collection", []string{"--count", "1"}, exitInvalid, "--collection NAME is required"},
		{"bad shape", []string{"--count", "1", "--collection", "x", "--shape", "9x8"}, exitInvalid, "want the grid size NxN"},
		{"prime shape", []string{"--count", "1", "--collection", "x", "--shape", "7x7"}, exitInvalid, "prime"},
		{"bad box", []string{"--count", "1", "--collection", "x", "--shape", "6x6", "--box", "2x2"}, exitInvalid, "gives 4x4 grids"},
		{"bad symmetry", []string{"--count", "1", "--collection", "x", "--symmetry", "spiral"}, exitInvalid, "want one of none, rot180"},
		{"bad givens", []string{"--count", "1", "--collection", "x", "--givens", "30..20"}, exitInvalid, "30 is above 20"},
		{"unknown rater", []string{"--count", "1", "--collection", "x", "--rating", "magic:1..2"}, exitNotFound, "unknown rater"},
		{"bad level", []string{"--count", "1", "--collection", "x", "--rating", "human:tough..extreme"}, exitInvalid, "easy, medium, hard, unfair, extreme, beyond"},
		{"db rater", []string{"--count", "1", "--collection", "x", "--rating", "empirical:1..2"}, exitInvalid, "cannot rate new ones"},
		{"unreachable", []string{"--count", "2", "--collection", "x", "--shape", "4x4", "--givens", "..3", "--max-attempts", "5"}, exitInvalid, "in 5 attempts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, append([]string{"--db", dbPath, "generate", "--seed", "1"}, tt.args...)...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, tt.code, tt.want)
			}
		})
	}
}

// TestGenerateInterrupted cancels a generation after its first batch: the
// puzzles written stay, the import row says where it stopped, and the
// error is context.Canceled (exit 130).
func TestGenerateInterrupted(t *testing.T) {
	dbPath := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := &generateOptions{options: &options{dbPath: dbPath, format: "table", registry: solvers.Default()},
		count: 100000, shape: "9x9", collection: "big", seed: 3, symmetry: "none", jobs: 2, batch: 10,
		maxAttempts: 10, committed: func(int) { cancel() }}
	cmd := newGenerateCmd(o.options)
	var out, errOut bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	_ = cmd.Flags().Set("seed", "3")
	if err := runGenerate(ctx, cmd, o); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted generate: %v", err)
	}
	got := mustRun(t, "--db", dbPath, "-O", "csv", "sql", `SELECT (SELECT count(*) FROM puzzle_catalog WHERE collection = 'big') AS n,
		puzzles_read >= 10 AND puzzles_read < 1000 AS ok, puzzles_read = (SELECT count(*) FROM collection_puzzles) AS same,
		instr(notes, 'stopped after') > 0 AS stopped FROM imports`)
	if !strings.HasSuffix(got, ",1,1,1\n") {
		t.Errorf("after the interruption: %s", got)
	}
	if !strings.Contains(out.String(), "generated ") {
		t.Errorf("stdout %q", out.String())
	}
}

// TestGenerateKilledLeavesATrueRecord reads the imports row after each
// committed batch, as a process killed outright at that point would leave
// it: it counts the puzzles stored so far and says the generation was
// under way.
func TestGenerateKilledLeavesATrueRecord(t *testing.T) {
	dbPath := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	var rows []string
	o := &generateOptions{options: &options{dbPath: dbPath, format: "table", registry: solvers.Default()},
		count: 30, shape: "9x9", collection: "gen", seed: 5, symmetry: "none", jobs: 1, batch: 10,
		maxAttempts: 10, committed: func(written int) {
			got := mustRun(t, "--db", dbPath, "-O", "csv", "sql", `SELECT puzzles_read, finished_at IS NULL,
				instr(notes, 'generating: '||puzzles_read||' of 30 stored') > 0,
				puzzles_read = (SELECT count(*) FROM collection_puzzles) FROM imports`)
			rows = append(rows, strings.SplitN(got, "\n", 2)[1])
		}}
	cmd := newGenerateCmd(o.options)
	var out, errOut bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	if err := runGenerate(context.Background(), cmd, o); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatal("no batch committed")
	}
	for i, r := range rows {
		if !strings.HasSuffix(r, ",1,1,1\n") || strings.HasPrefix(r, "0,") {
			t.Errorf("imports row after batch %d: %q, want the puzzles stored so far, unfinished, noted as generating", i+1, r)
		}
	}
}

// TestGenerateRateTimeout gives a candidate's rating the rater's own time
// limit, as rate does, unless --rate-timeout says otherwise.
func TestGenerateRateTimeout(t *testing.T) {
	for _, tt := range []struct {
		args  []string
		rater string
		want  time.Duration
	}{
		{nil, "se", raters.SETimeout},
		{nil, "human", raters.DefaultTimeout},
		{[]string{"--rate-timeout", "3s"}, "se", 3 * time.Second},
	} {
		cmd := newGenerateCmd(&options{})
		if err := cmd.ParseFlags(tt.args); err != nil {
			t.Fatal(err)
		}
		flag, _ := cmd.Flags().GetDuration("rate-timeout")
		got, err := rateTimeout(cmd, flag, tt.rater)
		if err != nil || got != tt.want {
			t.Errorf("%v, %s: %v, %v; want %v", tt.args, tt.rater, got, err, tt.want)
		}
	}
}
