package main

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"sudokulab/internal/gridgen"
	"sudokulab/raters"
	"sudokulab/solvers"
)

func TestRateAll(t *testing.T) {
	dbPath := exampleDB(t)
	out, errOut, code := run(t, "--db", dbPath, "-O", "csv", "rate", "--rater", "all", "--collection", "reseda-2012", "--jobs", "2")
	if code != 0 {
		t.Fatalf("rate: exit %d: %s", code, errOut)
	}
	if !regexp.MustCompile(`^rater,version,options,puzzles,skipped,cut_short,mean_value,labels\nbacktrack,\d+,`).MatchString(out) ||
		!strings.Contains(out, "\ngivens,1,{},4,0,0,") || !regexp.MustCompile(`\nhuman,\d+,\{\},4,0,0,`).MatchString(out) {
		t.Errorf("summary %q", out)
	}
	if !strings.Contains(errOut, "rated 4 puzzles by 4 raters; skipped 0 ratings") {
		t.Errorf("stderr %q", errOut)
	}
	// Rating again with other options replaces the rows.
	if _, errOut, code := run(t, "--db", dbPath, "rate", "--rater", "backtrack", "--collection", "reseda-2012", "--option", "samples=3"); code != 0 {
		t.Fatalf("rate again: exit %d: %s", code, errOut)
	}
	out, _, _ = run(t, "--db", dbPath, "-O", "csv", "sql", `
		SELECT r.rater, count(*) AS n, min(r.options) AS options
		FROM ratings r JOIN puzzle_catalog c ON c.id = r.puzzle_id AND c.collection = 'reseda-2012'
		WHERE r.rater IN ('backtrack', 'givens', 'human') GROUP BY r.rater ORDER BY r.rater`)
	want := "rater,n,options\n" +
		`backtrack,4,"{""limit"":2,""samples"":3,""seed"":1}"` + "\n" +
		"givens,4,{}\nhuman,4,{}\n"
	if out != want {
		t.Errorf("ratings:\n%s\nwant:\n%s", out, want)
	}
}

func TestRateEmpirical(t *testing.T) {
	dbPath := exampleDB(t)
	if _, errOut, code := run(t, "--db", dbPath, "run", "--collection", "reseda-2012", "--solver", "exact", "--runs", "3"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	if _, errOut, code := run(t, "--db", dbPath, "rate", "--rater", "empirical", "--option", "config=exact", "--collection", "reseda-2012"); code != 0 {
		t.Fatalf("rate: exit %d: %s", code, errOut)
	}
	// The exact solver solves every run: ERT is the mean of its effort,
	// search nodes (it counts no evaluations).
	out, _, _ := run(t, "--db", dbPath, "-O", "csv", "sql", `
		SELECT count(*) AS n, sum(CASE WHEN abs(g.value - x.ert) < 1e-9 AND g.label = 'exact' AND x.ert >= 1 THEN 1 ELSE 0 END) AS ok
		FROM ratings g JOIN (SELECT puzzle_id, 1.0 * sum(nodes) / count(*) AS ert FROM runs GROUP BY puzzle_id) x
			ON x.puzzle_id = g.puzzle_id
		WHERE g.rater = 'empirical' AND json_extract(g.details, '$.success_rate') = 1 AND json_extract(g.details, '$.runs') = 3`)
	if out != "n,ok\n4,4\n" {
		t.Errorf("empirical ratings: %q", out)
	}
}

func TestRateErrors(t *testing.T) {
	dbPath := exampleDB(t)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no rater", []string{"rate"}, exitInvalid, "--rater is required"},
		{"unknown rater", []string{"rate", "--rater", "hodoku"}, exitNotFound, `unknown rater "hodoku"`},
		{"bad option", []string{"rate", "--rater", "backtrack", "--option", "samples"}, exitInvalid, "want KEY=VALUE"},
		{"unknown option", []string{"rate", "--rater", "human", "--option", "depth=2"}, exitInvalid, `unknown option "depth"`},
		{"unprefixed with all", []string{"rate", "--rater", "all", "--option", "samples=2"}, exitInvalid, "RATER.samples=2"},
		{"option of another rater", []string{"rate", "--rater", "human", "--option", "backtrack.samples=2"}, exitInvalid, "not human"},
		{"unknown configuration", []string{"rate", "--rater", "empirical", "--option", "config=nope"}, exitNotFound, `"nope" not found`},
		{"bad predicate", []string{"rate", "--rater", "givens", "--where", "givens <"}, exitInvalid, "syntax error"},
		{"negative timeout", []string{"rate", "--rater", "givens", "--timeout", "-1s"}, exitInvalid, "--timeout -1s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, append([]string{"--db", dbPath}, tt.args...)...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, tt.code, tt.want)
			}
		})
	}
}

// TestRateInterruptedResumes interrupts rate after its first transaction:
// the ratings written stay, and rate again skips them (unless --force).
func TestRateInterruptedResumes(t *testing.T) {
	dir := t.TempDir()
	dbPath := initDB(t, filepath.Join(dir, "lab.db"))
	mustRun(t, "--db", dbPath, "import", "--collection", "many", writeVariants(t, dir, 300))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut bytes.Buffer
	o := &rateOptions{options: &options{dbPath: dbPath, format: "csv", registry: solvers.Default()},
		rater: "givens", collection: "many", jobs: 1, batch: 20, every: time.Hour,
		committed: func(int) { cancel() }}
	cmd := newRateCmd(o.options)
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	if err := runRate(ctx, cmd, o); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted rate: %v", err)
	}
	if !strings.Contains(errOut.String(), "20 ratings written before the error") {
		t.Errorf("stderr %q", errOut.String())
	}
	rated := func() string {
		return mustRun(t, "--db", dbPath, "-O", "csv", "sql", "SELECT count(*) AS n, max(rated_at) AS last FROM ratings WHERE rater = 'givens'")
	}
	before := rated()
	if !strings.HasPrefix(before, "n,last\n20,") {
		t.Fatalf("after the interruption: %s", before)
	}

	tests := []struct {
		name  string
		args  []string
		want  string
		count string
	}{
		{"resume", nil, "rated 280 puzzles by 1 raters; skipped 20 ratings", "n\n300\n"},
		{"again", nil, "rated 0 puzzles by 1 raters; skipped 300 ratings", "n\n300\n"},
		{"force", []string{"--force"}, "rated 300 puzzles by 1 raters; skipped 0 ratings", "n\n300\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, append([]string{"--db", dbPath, "rate", "--rater", "givens", "--collection", "many"}, tt.args...)...)
			if code != 0 || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want %q", code, errOut, tt.want)
			}
			if got := mustRun(t, "--db", dbPath, "-O", "csv", "sql", "SELECT count(*) AS n FROM ratings WHERE rater = 'givens'"); got != tt.count {
				t.Errorf("ratings: %s, want %s", got, tt.count)
			}
		})
		if tt.name == "resume" {
			// The 20 ratings written before were left as they were.
			if n := mustRun(t, "--db", dbPath, "-O", "csv", "sql", "SELECT count(*) AS n FROM ratings WHERE rater = 'givens' AND rated_at <= '"+strings.Split(strings.TrimSpace(before), ",")[2]+"'"); n != "n\n20\n" {
				t.Errorf("ratings from before the interruption: %s", n)
			}
		}
	}
}

// TestRateTimeout rates a 25x25 puzzle under a 1 ms --timeout: the
// backtrack and human ratings are cut short, reported and not stored, and
// rate again with a long --timeout finishes them. The givens and se
// ratings are made first, without a limit, and skipped after: their
// microseconds could miss 1 ms of wall time on a loaded machine, while
// backtrack's and human's 100 ms and more of CPU can never fit in it.
func TestRateTimeout(t *testing.T) {
	dbPath := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	mustRun(t, "--db", dbPath, "puzzles", "add", "--collection", "big", gridgen.Pattern(5, 60, 1).String())
	rate := func(timeout, rater string) (string, string) {
		t.Helper()
		start := time.Now()
		out, errOut, code := run(t, "--db", dbPath, "-O", "csv", "rate", "--rater", rater, "--collection", "big", "--timeout", timeout, "--jobs", "1")
		if code != 0 {
			t.Fatalf("rate --timeout %s: exit %d: %s", timeout, code, errOut)
		}
		t.Logf("rate --timeout %s: %v", timeout, time.Since(start))
		return out, errOut
	}
	stored := func() string {
		t.Helper()
		return mustRun(t, "--db", dbPath, "-O", "csv", "sql", "SELECT rater, value IS NOT NULL AS valued FROM ratings ORDER BY rater")
	}

	rate("0", "givens")
	rate("0", "se")
	out, errOut := rate("1ms", "all")
	for _, want := range []string{`\nbacktrack,\d+,`, `\nhuman,\d+,\{\},0,0,1,,\n`, `\ngivens,1,\{\},0,1,0,,\n`} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("summary %q lacks %q", out, want)
		}
	}
	if !strings.Contains(out, `"{""limit"":2,""samples"":8,""seed"":1}",0,0,1,,`) {
		t.Errorf("backtrack not cut short: %q", out)
	}
	for _, want := range []string{"backtrack: 1 ratings cut short by --timeout 1ms, not stored (puzzles 1)",
		"human: 1 ratings cut short by --timeout 1ms, not stored (puzzles 1); rate again with a longer --timeout"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q lacks %q", errOut, want)
		}
	}
	// se stores its "not 9x9" rating, without a value, at once.
	if got := stored(); got != "rater,valued\ngivens,1\nse,0\n" {
		t.Errorf("after the cut-short ratings, stored:\n%s", got)
	}

	// The cut-short ratings are not skipped: rate again finishes them.
	out, errOut = rate("10m", "all")
	if !strings.Contains(errOut, "skipped 2 ratings") || strings.Contains(errOut, "cut short") {
		t.Errorf("stderr %q", errOut)
	}
	if !regexp.MustCompile(`\nhuman,\d+,\{\},1,0,0,[0-9.e+]+,beyond:1\n`).MatchString(out) || !strings.Contains(out, "\ngivens,1,{},0,1,0,,\n") {
		t.Errorf("summary %q", out)
	}
	if got := stored(); got != "rater,valued\nbacktrack,1\ngivens,1\nhuman,1\nse,0\n" {
		t.Errorf("after rating again, stored:\n%s", got)
	}
	if _, errOut = rate("1ms", "all"); !strings.Contains(errOut, "skipped 4 ratings") {
		t.Errorf("a third rate: stderr %q", errOut)
	}
}

// TestRateLimitsPerRater holds each rater to its own default time limit
// (se's hardest puzzles take up to 40 s of CPU, so 30 s cut them short),
// and --timeout, when given, to every rater.
func TestRateLimitsPerRater(t *testing.T) {
	reg := raters.Default()
	tests := []struct {
		name string
		args []string
		want map[string]time.Duration
	}{
		{"defaults", nil, map[string]time.Duration{"se": raters.SETimeout, "human": raters.DefaultTimeout, "backtrack": raters.DefaultTimeout, "givens": raters.DefaultTimeout}},
		{"flag", []string{"--timeout", "2s"}, map[string]time.Duration{"se": 2 * time.Second, "human": 2 * time.Second}},
		{"no limit", []string{"--timeout", "0"}, map[string]time.Duration{"se": 0, "human": 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := &rateOptions{options: &options{}}
			cmd := newRateCmd(o.options)
			if err := cmd.ParseFlags(tt.args); err != nil {
				t.Fatal(err)
			}
			o.timeout, _ = cmd.Flags().GetDuration("timeout")
			rs, err := makeRaters(context.Background(), nil, reg, "all", nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := o.limits(cmd, reg, rs)
			if err != nil {
				t.Fatal(err)
			}
			for name, want := range tt.want {
				if got[name] != want {
					t.Errorf("%s: limit %v, want %v", name, got[name], want)
				}
			}
		})
	}
	if raters.SETimeout < 2*time.Minute {
		t.Errorf("se's default limit %v: its hardest puzzles take up to 40 s of CPU, several times that on a loaded machine", raters.SETimeout)
	}
}
