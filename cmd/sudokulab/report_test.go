package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"sudokulab/internal/pgtest"
	"sudokulab/migrations"
	"sudokulab/runner"
)

// envChromium switches the browser test off when set to "skip".
const envChromium = "SUDOKULAB_TEST_CHROMIUM"

// envScreenshots names a folder where the browser test also writes its
// screenshots, for a person to look at.
const envScreenshots = "SUDOKULAB_TEST_SCREENSHOTS"

// writeReport runs report on the experiment and returns the page.
func writeReport(t *testing.T, dbPath, experiment string, extra ...string) (page, path string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "report.html")
	args := append([]string{"--db", dbPath, "report", "--experiment", experiment, "-o", path}, extra...)
	_, errOut, code := run(t, args...)
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(errOut, "wrote "+path+": ") {
		t.Errorf("stderr %q", errOut)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), path
}

// latestMigration returns the version of the newest embedded migration,
// the schema version of a database the test made.
func latestMigration(t *testing.T) int {
	t.Helper()
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil || len(names) == 0 {
		t.Fatalf("migrations: %v %v", names, err)
	}
	latest := 0
	for _, n := range names {
		v, err := strconv.Atoi(strings.SplitN(n, "_", 2)[0])
		if err != nil {
			t.Fatalf("migration %s: %v", n, err)
		}
		latest = max(latest, v)
	}
	return latest
}

// checkPage checks what every report holds: each section, tables with
// rows, the pictures, and nothing that reaches outside the page.
func checkPage(t *testing.T, page string) {
	t.Helper()
	for _, want := range []string{`<section id="success">`, `<section id="comparisons">`, `<section id="configurations">`,
		`<section id="provenance">`, fmt.Sprintf("schema version %d", latestMigration(t)), `<table class="data" id="table-success">`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, bad := range []string{"<script", "<link", "src=", `href="http`, "url(http", "@import"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
	tables := regexp.MustCompile(`(?s)<table.*?</table>`).FindAllString(page, -1)
	if len(tables) < 4 {
		t.Errorf("%d tables", len(tables))
	}
	for i, tb := range tables {
		if !strings.Contains(tb, "<tbody>\n<tr") {
			t.Errorf("table %d has no rows: %.300s", i, tb)
		}
	}
}

func TestReportExample(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lab.db")
	if _, errOut, code := run(t, "--db", path, "init", "--from", "../../lab.db.example"); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errOut)
	}
	before := fileHash(t, path)
	page, file := writeReport(t, path, "example-samples")
	if fileHash(t, path) != before {
		t.Error("report changed the database file")
	}
	checkPage(t, page)
	configs, _, _ := run(t, "--db", path, "-O", "csv", "sql",
		"SELECT COUNT(DISTINCT config) FROM run_results WHERE experiment = 'example-samples'")
	n := strings.TrimSpace(strings.Split(configs, "\n")[1])
	for _, want := range []string{
		"<dt>Configurations</dt><dd>" + n + "</dd>",
		"more than 5: each is compared with the best",
		`<h2>Per puzzle</h2>`,
		`<figure id="figure-success">`, `<figure id="figure-ecdf">`, `<figure id="figure-convergence">`, `<figure id="figure-ert">`,
		"S. Maire and C. Prissette", // RESEDA's paper, cited by its configurations
		// Its presets ran on different puzzles: no ranking, and why.
		"No ranking: compare: no puzzle has a score of every one of the " + n + " configurations",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if c := strings.Count(page, "<svg"); c != 4 {
		t.Errorf("%d pictures, want 4; not drawn: %q", c, regexp.MustCompile(`not drawn: [^<]*`).FindAllString(page, -1))
	}
	if c := strings.Count(page, `<article id="config-`); c != mustAtoi(t, n) {
		t.Errorf("%d configurations described, want %s", c, n)
	}
	checkInChromium(t, file, "example")
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestReportFreshExperiment runs three configurations on the four puzzles
// of one collection, one of them the exact solver (which counts nodes, not
// evaluations), and reports on them.
func TestReportFreshExperiment(t *testing.T) {
	path := exampleDB(t)
	a, b := "reseda-table1-both-a0.7", "reseda-table1-perm-a0.7"
	if _, errOut, code := run(t, "--db", path, "run", "--collection", "reseda-2012", "--config", a, "--config", b,
		"--runs", "3", "--max-generations", "200", "--experiment", "fresh"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	if _, errOut, code := run(t, "--db", path, "run", "--collection", "reseda-2012", "--config", "exact",
		"--runs", "2", "--experiment", "fresh"); code != 0 {
		t.Fatalf("run exact: exit %d: %s", code, errOut)
	}
	page, file := writeReport(t, path, "fresh", "--resamples", "200")
	checkPage(t, page)
	for _, want := range []string{
		"<dt>Configurations</dt><dd>3</dd>", "<dt>Puzzles</dt><dd>4</dd>", "<dt>Runs</dt><dd>32 of 32 planned</dd>",
		"3 configurations: every pair is compared (3 pairs)",
		"exact counts nodes and " + a + " evaluations, which do not compare: times in CPU seconds.",
		"time in CPU seconds", "<th scope=\"col\">effort unit</th>",
		`<h2>Per puzzle</h2>`, "(9x9, ",
		"Runtime distribution (ECDF)",
		// The pictures' axes as plot and compare decide, and captions
		// that say what the pictures show: no budget line on an axis of
		// time when the runs had no time limit.
		"within each budget of CPU seconds (exact counts nodes and " + a + " evaluations, which do not compare), with a bootstrap confidence band. ",
		"Median best cost against generations, with the band between the quartiles, from the stored trajectory points; one panel per puzzle for 2 to 16 puzzles; the dashed line marks the runs&#39; budget, 200 generations.",
		"Expected running time in wall-clock seconds (exact counts nodes and " + a + " evaluations, which do not compare)",
		// Per configuration: its runs, budget and stopping rule, seeds,
		// the command that makes its runs and the code version.
		"<dt>Runs</dt><dd>12 on 4 puzzles with 3 seeds: 1-3</dd>",
		"<dt>Stopping rule</dt><dd>A run stops at its first solution (best cost 0), or when it has spent 200 generations.</dd>",
		"<dt>Stopping rule</dt><dd>A run stops only at its first solution (best cost 0): no budget was set.</dd>",
		`<code class="command">sudokulab run --experiment fresh --config exact --collection reseda-2012 --runs 2</code>`,
		`<code class="command">sudokulab run --experiment fresh --config ` + a + ` --collection reseda-2012 --runs 3 --max-generations 200</code>`,
		"<dt>Code version</dt><dd><code>" + strings.ReplaceAll(runner.CodeVersion(), "+", "&#43;") + "</code> (12 runs)</dd>",
		// More than two configurations: the page opens with their ranking,
		// its scores in CPU seconds since the efforts do not compare.
		`<li><a href="#ranking">Ranking</a></li>`,
		"3 configurations ranked by ERT in cpu seconds on 4 puzzles; Friedman chi2 = ",
		"Scores in cpu seconds: exact counts nodes and " + a + " evaluations, which do not compare.",
		`<figure id="figure-cd">`, `<figure id="figure-aggecdf">`,
		"over the puzzles every one ran on, by expected running time (exact counts nodes and " + a + " evaluations, which do not compare)",
		"within each budget of wall-clock seconds (exact counts nodes",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
			if i := strings.Index(page, want[:min(len(want), 20)]); i >= 0 {
				t.Logf("it has %q", page[i:min(len(page), i+300)])
			}
		}
	}
	if strings.Contains(page, "not drawn") {
		t.Errorf("pictures not drawn: %q", regexp.MustCompile(`not drawn: [^<]*`).FindAllString(page, -1))
	}
	if r, s := strings.Index(page, `<section id="ranking">`), strings.Index(page, `<section id="success">`); r < 0 || r > s {
		t.Errorf("the ranking (at %d) does not open the page (success at %d)", r, s)
	}
	if c := strings.Count(page, "<svg"); c != 6 {
		t.Errorf("%d pictures, want 6 (4 and the ranking's 2)", c)
	}
	// The same seed gives the same tables.
	again, _ := writeReport(t, path, "fresh", "--resamples", "200")
	cut := func(s string) string { return s[strings.Index(s, "<main>"):strings.Index(s, `<section id="figures">`)] }
	if cut(again) != cut(page) {
		t.Error("the same seed gave other tables")
	}
	checkInChromium(t, file, "fresh")
}

// TestReportPostgres merges lab.db.example into a new SQLite lab and into
// a new PostgreSQL database, and finds the very tables in both reports.
func TestReportPostgres(t *testing.T) {
	example := copyExample(t, t.TempDir())
	sqlite := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	pg := initDB(t, pgtest.DSN(t))
	for _, target := range []string{sqlite, pg} {
		if _, errOut, code := run(t, "--db", target, "merge", example); code != 0 {
			t.Fatalf("merge into %s: exit %d: %s", target, code, errOut)
		}
	}
	onSQLite, _ := writeReport(t, sqlite, "example-samples", "--no-plots", "--resamples", "100")
	onPG, _ := writeReport(t, pg, "example-samples", "--no-plots", "--resamples", "100")
	cut := func(s string) string {
		return s[strings.Index(s, "<main>"):strings.Index(s, `<section id="provenance">`)]
	}
	if a, b := cut(onSQLite), cut(onPG); a != b {
		i := 0
		for i < min(len(a), len(b)) && a[i] == b[i] {
			i++
		}
		t.Errorf("PostgreSQL gives other tables than SQLite, from:\n...%s...\nvs\n...%s...", a[max(0, i-200):min(len(a), i+200)], b[max(0, i-200):min(len(b), i+200)])
	}
	v := latestMigration(t)
	if !strings.Contains(onPG, fmt.Sprintf("(PostgreSQL, schema version %d)", v)) || !strings.Contains(onSQLite, fmt.Sprintf("(SQLite, schema version %d)", v)) {
		t.Error("the pages do not name their engine")
	}
}

func TestReportErrors(t *testing.T) {
	path := exampleDB(t)
	out := filepath.Join(t.TempDir(), "r.html")
	if _, errOut, code := run(t, "--db", path, "sql", "--write", "INSERT INTO experiments (name) VALUES ('empty')"); code != 0 {
		t.Fatal(errOut)
	}
	for _, tt := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no experiment", []string{"report", "-o", out}, exitInvalid, "report needs --experiment NAME"},
		{"no output", []string{"report", "--experiment", "x"}, exitInvalid, "report needs -o FILE.html"},
		{"bad level", []string{"report", "--experiment", "x", "-o", out, "--level", "95"}, exitInvalid, "--level 95"},
		{"bad resamples", []string{"report", "--experiment", "x", "-o", out, "--resamples", "0"}, exitInvalid, "--resamples 0"},
		{"unknown experiment", []string{"report", "--experiment", "nope", "-o", out}, exitNotFound, `no experiment called "nope"`},
		{"no runs", []string{"report", "--experiment", "empty", "-o", out}, exitNotFound, `experiment "empty" has no runs yet`},
		{"missing database", []string{"--db", filepath.Join(t.TempDir(), "none.db"), "report", "--experiment", "x", "-o", out}, exitNotFound, "does not exist"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if args[0] == "report" {
				args = append([]string{"--db", path}, args...)
			}
			_, errOut, code := run(t, args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, tt.code, tt.want)
			}
		})
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed report left %s behind: %v", out, err)
	}
}

// chromiumPath returns the browser chromedp starts, or "" when none is
// installed.
func chromiumPath() string {
	for _, name := range []string{"headless-shell", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// maxFullScreenshot is the height of the longest page checkInChromium
// takes a screenshot of whole, in CSS pixels.
const maxFullScreenshot = 20000

// pageCheck is what the browser reports about a page.
type pageCheck struct {
	Tables []struct {
		ID      string  `json:"id"`
		Rows    int     `json:"rows"`
		Width   float64 `json:"width"`
		Height  float64 `json:"height"`
		Visible bool    `json:"visible"`
	} `json:"tables"`
	Pictures []struct {
		Tag    string  `json:"tag"`
		Width  float64 `json:"width"`
		Height float64 `json:"height"`
	} `json:"pictures"`
	Details int     `json:"details"`
	Width   float64 `json:"width"`
	Height  float64 `json:"height"`
}

// measure runs in the page: every table with its rows and size, every
// picture (svg, img, canvas, object) with its size. Tables in closed
// <details> have no size until opened.
const measure = `(() => {
  const box = e => e.getBoundingClientRect();
  return {
    tables: [...document.querySelectorAll("table")].map(t => ({
      id: t.id || (t.closest("[id]") || {}).id || "",
      rows: t.querySelectorAll("tbody tr").length,
      width: box(t).width, height: box(t).height,
      visible: !t.closest("details:not([open])"),
    })),
    pictures: [...document.querySelectorAll("svg, img, canvas, object, embed, iframe")].filter(e => !e.parentElement.closest("svg")).map(e => ({
      tag: e.tagName.toLowerCase(), width: box(e).width, height: box(e).height,
    })),
    details: document.querySelectorAll("details").length,
    width: document.documentElement.scrollWidth,
    height: document.documentElement.scrollHeight,
  };
})()`

// checkInChromium loads the page at path in a headless Chromium from its
// file:// URL and checks that it renders: every table has rows and a size
// (those in closed <details> once opened), every picture a size, no
// console message of level warning or error, no exception, and no request
// but the page itself. It writes a screenshot of the top of the page and
// one of the whole page to the test's folder, and to the folder
// $SUDOKULAB_TEST_SCREENSHOTS names, for a person to look at.
//
// Without Chromium the test fails, saying how to install it, unless
// $SUDOKULAB_TEST_CHROMIUM is "skip": a CI without the browser must not
// pass silently.
func checkInChromium(t *testing.T, path, name string) {
	t.Helper()
	if os.Getenv(envChromium) == "skip" {
		t.Logf("%s=skip: the page is not checked in Chromium", envChromium)
		return
	}
	if chromiumPath() == "" {
		t.Fatalf("no Chromium to check the report in: run scripts/ensure-chromium (apt-get install chromium chromium-driver), or set %s=skip", envChromium)
	}
	start := time.Now()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.DisableGPU,
		chromedp.WindowSize(1400, 900),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("hide-scrollbars", true),
	)
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // Chromium refuses to run as root with its sandbox
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	var (
		mu       sync.Mutex
		problems []string
		requests []string
	)
	listen := func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning || e.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range e.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				problems = append(problems, fmt.Sprintf("console.%s: %s", e.Type, strings.Join(args, " ")))
			}
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+e.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			if e.Entry.Level == log.EntryLevelError || e.Entry.Level == log.EntryLevelWarning {
				problems = append(problems, fmt.Sprintf("log %s (%s): %s %s", e.Entry.Level, e.Entry.Source, e.Entry.Text, e.Entry.URL))
			}
		case *network.EventRequestWillBeSent:
			requests = append(requests, e.Request.URL)
		}
	}
	ctx, cancel := chromedp.NewContext(allocCtx, chromedp.WithListener(listen))
	defer cancel()
	// The first Run starts the browser: no timeout on it (see chromedp.Run).
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	defer cancelTimeout()
	pageURL := (&url.URL{Scheme: "file", Path: path}).String()
	if err := chromedp.Do(ctx, chromedp.Navigate(pageURL)); err != nil {
		t.Fatalf("load %s: %v", pageURL, err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[pageCheck](measure))
	if err != nil {
		t.Fatalf("measure the page: %v", err)
	}
	if len(got.Tables) == 0 || len(got.Pictures) == 0 {
		t.Errorf("%d tables and %d pictures rendered", len(got.Tables), len(got.Pictures))
	}
	for i, tb := range got.Tables {
		if tb.Rows == 0 || (tb.Visible && (tb.Width <= 0 || tb.Height <= 0)) {
			t.Errorf("table %d (%s): %d rows, %.0fx%.0f px", i, tb.ID, tb.Rows, tb.Width, tb.Height)
		}
	}
	for i, p := range got.Pictures {
		if p.Width <= 0 || p.Height <= 0 {
			t.Errorf("picture %d (<%s>) is %.0fx%.0f px", i, p.Tag, p.Width, p.Height)
		}
	}
	if got.Width > 1400 {
		t.Errorf("the page is %.0f px wide in a 1400 px window: it scrolls sideways", got.Width)
	}
	top, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	// The whole page, unless it is too long to look at (and to capture
	// quickly).
	shots := map[string][]byte{"": top}
	if got.Height <= maxFullScreenshot {
		full, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("full screenshot: %v", err)
		}
		shots["-full"] = full
	}
	// Open every <details>: the tables in them must render too.
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.querySelectorAll("details").forEach(d => d.open = true)`)); err != nil {
		t.Fatal(err)
	}
	opened, err := chromedp.Run(ctx, chromedp.Evaluate[pageCheck](measure))
	if err != nil {
		t.Fatal(err)
	}
	for i, tb := range opened.Tables {
		if tb.Width <= 0 || tb.Height <= 0 {
			t.Errorf("table %d (%s) in an opened <details>: %.0fx%.0f px", i, tb.ID, tb.Width, tb.Height)
		}
	}
	mu.Lock()
	for _, p := range problems {
		t.Errorf("Chromium: %s", p)
	}
	for _, r := range slices.Compact(slices.Sorted(slices.Values(requests))) {
		if r != pageURL {
			t.Errorf("the page requested %s: it must need nothing but itself", r)
		}
	}
	mu.Unlock()
	dirs := []string{t.TempDir()}
	if d := os.Getenv(envScreenshots); d != "" {
		dirs = append(dirs, d)
	}
	for _, dir := range dirs {
		for suffix, png := range shots {
			out := filepath.Join(dir, "report-"+name+suffix+".png")
			if err := os.WriteFile(out, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot: %s", out)
		}
	}
	t.Logf("Chromium: %d tables (%d in details), %d pictures, page %.0fx%.0f px, %d requests, in %v",
		len(got.Tables), got.Details, len(got.Pictures), got.Width, got.Height, len(requests), time.Since(start).Round(time.Millisecond))
}
