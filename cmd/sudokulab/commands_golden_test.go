package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"sudokulab/runner"
)

// TestCommandsGolden runs a fixed session of the commands that read and
// write runs (import, run, rate, count, plot, report, compare, export-runs)
// on a copy of lab.db.example and compares everything they print and write
// with testdata/commands, times and versions aside. It pins the commands'
// behaviour while their code moves between packages: the same command on
// the same lab must record the same runs and print the same output.
func TestCommandsGolden(t *testing.T) {
	dir := t.TempDir()
	lab := filepath.Join(dir, "lab.db")
	out := func(name string) string { return filepath.Join(dir, name) }
	pair := []string{"--config", "reseda-table3-zones27", "--config", "franco-tabu-table2-ac3"}
	steps := []struct {
		name  string
		args  []string
		files []string // files the command writes, compared after its output
	}{
		{"init", []string{"init", "--from", filepath.Join("..", "..", "lab.db.example")}, nil},
		{"import", []string{"import", "--collection", "golden", "--count-timeout", "1ns", filepath.Join("testdata", "commands", "puzzles.txt")}, nil},
		{"count", []string{"count", "--jobs", "1", "--collection", "golden"}, nil},
		{"rate", []string{"rate", "--rater", "all", "--jobs", "1", "--collection", "golden"}, nil},
		{"rate-again", []string{"rate", "--rater", "givens", "--force", "--collection", "reseda-2012"}, nil},
		{"run", append([]string{"run", "--experiment", "golden", "--collection", "paper-puzzles", "--runs", "2", "--seed", "7", "--max-evaluations", "20000", "--jobs", "1"}, pair...), nil},
		{"run-again", append([]string{"run", "--experiment", "golden", "--collection", "paper-puzzles", "--runs", "2", "--seed", "7", "--max-evaluations", "20000", "--jobs", "1"}, pair...), nil},
		{"run-solver", []string{"run", "--experiment", "golden-exact", "--solver", "exact", "--where", "givens < 30", "--jobs", "1"}, nil},
		{"runs-list", []string{"-O", "csv", "runs", "list", "--experiment", "golden", "--limit", "0", "--runs-where", "solved = 1", "--where", "givens > 30"}, nil},
		{"experiments-show", []string{"experiments", "show", "golden"}, nil},
		{"runs-show", []string{"runs", "show", "340"}, nil},
		{"compare", append([]string{"compare", "--experiment", "golden"}, pair...), nil},
		{"compare-json", append([]string{"-O", "json", "compare", "--experiment", "golden"}, pair...), nil},
		{"plot-success", []string{"plot", "success", "--experiment", "golden", "-o", out("success.svg")}, []string{"success.svg"}},
		{"plot-ecdf", []string{"plot", "ecdf", "--experiment", "golden", "-o", out("ecdf.svg")}, []string{"ecdf.svg"}},
		{"plot-ert", []string{"plot", "ert", "--experiment", "golden", "-o", out("ert.svg")}, []string{"ert.svg"}},
		{"plot-convergence", []string{"plot", "convergence", "--experiment", "golden", "-o", out("convergence.svg")}, []string{"convergence.svg"}},
		{"report", []string{"report", "--experiment", "golden", "-o", out("report.html")}, []string{"report.html"}},
		{"export-csv", []string{"export-runs", "--format", "csv", "--experiment", "golden", "-o", out("runs.csv")}, []string{"runs.csv", "runs-runs.csv"}},
		{"export-ioh", []string{"export-runs", "--format", "iohprofiler", "--experiment", "golden", "-o", out("ioh")}, []string{"ioh"}},
	}
	for _, s := range steps {
		stdout, stderr, code := run(t, append([]string{"--db", lab}, s.args...)...)
		var b strings.Builder
		b.WriteString("$ sudokulab " + strings.Join(s.args, " ") + "\n")
		if s.args[0] == "-O" && s.args[1] == "csv" {
			stdout = string(blankColumns(t, []byte(stdout), timeColumns...))
		}
		b.WriteString(stdout)
		b.WriteString("--- stderr\n" + dropProgressLines(stderr))
		b.WriteString("--- exit " + string(rune('0'+code)) + "\n")
		for _, f := range s.files {
			b.WriteString(filesText(t, dir, f))
		}
		got := strings.ReplaceAll(maskTimes(maskTableColumns(b.String())), dir, "DIR")
		v := runner.CodeVersion()
		got = strings.ReplaceAll(strings.ReplaceAll(got, v, "CODE"), strings.ReplaceAll(v, "+", "&#43;"), "CODE")
		if host, err := os.Hostname(); err == nil && host != "" {
			got = regexp.MustCompile(`\b`+regexp.QuoteMeta(host)+`\b`).ReplaceAllString(got, "HOST")
		}
		goldenLines(t, filepath.Join("testdata", "commands", s.name+".golden"), got)
	}
}

// filesText returns the file or every file under the folder name in dir,
// each after a line naming it, CSV files with their time columns blanked.
func filesText(t *testing.T, dir, name string) string {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(filepath.Join(dir, name), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	var b strings.Builder
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		b.WriteString("=== " + filepath.ToSlash(rel) + "\n")
		if strings.HasSuffix(p, ".dat") {
			data = blankIOHSeconds(data)
		}
		if strings.HasSuffix(p, ".csv") {
			data = blankColumns(t, data, timeColumns...)
		}
		b.Write(data)
		b.WriteString("\n")
	}
	return b.String()
}

// timeColumns are the columns of CSV output that differ from run to run.
var timeColumns = []string{"wall_seconds", "cpu_seconds", "seconds", "started_at", "finished_at", "code_version", "host"}

// blankColumns empties the named columns of a CSV file.
func blankColumns(t *testing.T, data []byte, names ...string) []byte {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil || len(rows) == 0 {
		return data
	}
	var cols []int
	for i, h := range rows[0] {
		for _, n := range names {
			if h == n {
				cols = append(cols, i)
			}
		}
	}
	for _, r := range rows[1:] {
		for _, c := range cols {
			if c < len(r) && r[c] != "" {
				r[c] = "T"
			}
		}
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.WriteAll(rows); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var timePatterns = []*regexp.Regexp{
	regexp.MustCompile(`\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?Z?`),
	regexp.MustCompile(`\b\d+(\.\d+)? ?(ns|µs|us|ms|s|m|h)\b`),
}

// maskTimes replaces clock readings and durations, which differ from run
// to run, by a fixed word.
func maskTimes(s string) string {
	s = timePatterns[0].ReplaceAllString(s, "TIME")
	return timePatterns[1].ReplaceAllString(s, "DUR")
}

// blankIOHSeconds empties the seconds column of an IOHprofiler .dat file.
func blankIOHSeconds(data []byte) []byte {
	lines := strings.Split(string(data), "\n")
	col := -1
	for i, l := range lines {
		f := strings.Fields(l)
		if strings.HasPrefix(l, `"`) {
			col = -1
			for j, h := range regexp.MustCompile(`"[^"]*"`).FindAllString(l, -1) {
				if h == `"seconds"` {
					col = j
				}
			}
			continue
		}
		if col >= 0 && col < len(f) && f[col] != "NA" {
			f[col] = "T"
			lines[i] = strings.Join(f, " ")
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// goldenLines compares got with the golden file at path, or rewrites it
// with -update, and reports the first lines that differ rather than both
// texts, which run to thousands of lines.
func goldenLines(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got == string(want) {
		return
	}
	g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	shown := 0
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			t.Errorf("%s line %d:\n got: %.300s\nwant: %.300s", path, i+1, gl, wl)
			if shown++; shown == 5 {
				break
			}
		}
	}
}

// maskTableColumns replaces the cells of the time columns (timeColumns and
// elapsed_seconds) of the space-aligned tables in s.
func maskTableColumns(s string) string {
	lines := strings.Split(s, "\n")
	col := -1
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) == 0 || strings.Contains(l, ",") {
			col = -1
			continue
		}
		if c := columnOf(f); c >= 0 {
			col = c
			continue
		}
		if col >= 0 && col < len(f) {
			f[col] = "T"
			lines[i] = strings.Join(f, " ")
		}
	}
	return strings.Join(lines, "\n")
}

// columnOf returns the index of the first time column among the header
// fields f, or -1.
func columnOf(f []string) int {
	for i, h := range f {
		if h == "elapsed_seconds" {
			return i
		}
		for _, n := range timeColumns {
			if h == n {
				return i
			}
		}
	}
	return -1
}

// progressLine matches the lines a command prints every few seconds while
// it works (internal/progress) when standard error is not a terminal: how
// many come depends on the machine's speed and load. The last line of a
// run ("runs 44/44, ...") is printed whatever the speed and is kept.
var progressLine = regexp.MustCompile(`^(runs (\d+)/(\d+), solved \d+, elapsed .*|\w+ \d+/\d+(: .*)?, elapsed [^,]*|.*: \d+ puzzles, \d+ of \d+ bytes, elapsed .*)$`)

// dropProgressLines removes the periodic progress lines from s.
func dropProgressLines(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if m := progressLine.FindStringSubmatch(strings.TrimSuffix(l, "\n")); m != nil && !(m[2] != "" && m[2] == m[3]) {
			continue
		}
		b.WriteString(l)
	}
	return b.String()
}

func TestDropProgressLines(t *testing.T) {
	in := "11 puzzles matched\n" +
		"runs 20/44, solved 3, elapsed 5s, remaining ~6s\n" +
		"runs 44/44, solved 25, elapsed 11s, remaining ~0s\n" +
		"rate 3/5: 2 written, elapsed 5s\n" +
		"count 7/9, elapsed 10s\n" +
		"x.txt: 10 puzzles, 100 of 200 bytes, elapsed 5s\n" +
		"rated 5 puzzles by 4 raters; skipped 0 ratings\n"
	want := "11 puzzles matched\n" +
		"runs 44/44, solved 25, elapsed 11s, remaining ~0s\n" +
		"rated 5 puzzles by 4 raters; skipped 0 ratings\n"
	if got := dropProgressLines(in); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
