package runexport_test

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sudokulab/runexport"
)

// example is IOHanalyzer's example data (testdata/iohanalyzer/LICENSE.md).
const (
	exampleDir  = "testdata/iohanalyzer"
	exampleInfo = "testdata/iohanalyzer/ONE_PLUS_LAMDA_EA/IOHprofiler_f1_i1.info"
	exampleDat  = "testdata/iohanalyzer/ONE_PLUS_LAMDA_EA/data_f1/IOHprofiler_f1_DIM100_i1.dat"
)

// lines returns the lines of a file.
func lines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// The format as IOHanalyzer's example shows it, field by field. Each
// pattern is checked on the example first, so that it says what the
// example does, then on what we write.
var (
	// A name = value pair of the first line: the value bare, or in single
	// (the example) or double (IOHexperimenter) quotes, with no comma.
	infoPair = regexp.MustCompile(`^[A-Za-z]+ = ("[^",]*"|'[^',]*'|[^,"' ]+)$`)
	// A run of the third line: instance:runtime|best-so-far, the best as
	// "%.5e".
	infoRun = regexp.MustCompile(`^\d+:\d+\|\d\.\d{5}e[+-]\d{2}$`)
	// The separation line: double-quoted names separated by spaces.
	datSeparation = regexp.MustCompile(`^"[^"]+"( +"[^"]+")* *$`)
	// A record: an integer runtime, then current f(x), best-so-far f(x)
	// and their transformed values as "%+.5e" (or NA where unknown),
	// then the parameters (plain numbers, or NA), separated by single
	// spaces.
	datRecord = regexp.MustCompile(`^\d+( ([+-]\d\.\d{5}e[+-]\d{2}|NA)){4}( (-?\d+(\.\d+)?|NA))*$`)
)

// infoNames are the names of the example's first line, which we write in
// the same order (with funcName and maximization between them, as
// IOHexperimenter does).
var infoNames = []string{"suite", "funcId", "DIM", "algId", "algInfo"}

// checkInfoLines checks the three lines of a .info block and returns the
// name = value pairs and the number of runs.
func checkInfoLines(t *testing.T, file string, l []string) (attrs map[string]string, runs int) {
	t.Helper()
	if len(l) != 3 {
		t.Fatalf("%s: %d lines, want 3", file, len(l))
	}
	attrs = map[string]string{}
	var names []string
	for _, f := range strings.Split(l[0], ", ") {
		if !infoPair.MatchString(f) {
			t.Errorf("%s:1: %q is not name = value as in the example", file, f)
			continue
		}
		k, v, _ := strings.Cut(f, " = ")
		names = append(names, k)
		attrs[k] = strings.Trim(v, `"'`)
	}
	var order []string
	for _, n := range names {
		if slices.Contains(infoNames, n) {
			order = append(order, n)
		}
	}
	if !slices.Equal(order, infoNames) {
		t.Errorf("%s:1: names %v, want the example's %v in that order", file, names, infoNames)
	}
	if l[1] != "%" && !strings.HasPrefix(l[1], "% ") {
		t.Errorf("%s:2: %q is not a comment line", file, l[1])
	}
	fields := strings.Split(l[2], ", ")
	dat := regexp.MustCompile(`^data_f` + regexp.QuoteMeta(attrs["funcId"]) + `(_[A-Za-z0-9._-]+)?/IOHprofiler_f` +
		regexp.QuoteMeta(attrs["funcId"]) + `_DIM` + regexp.QuoteMeta(attrs["DIM"]) + `(_i\d+)?\.dat$`)
	if !dat.MatchString(fields[0]) {
		t.Errorf("%s:3: data file %q, want data_f<funcId>[_<name>]/IOHprofiler_f<funcId>_DIM<DIM>.dat", file, fields[0])
	}
	for _, r := range fields[1:] {
		if !infoRun.MatchString(r) {
			t.Errorf("%s:3: run %q is not instance:runtime|best as in the example", file, r)
		}
	}
	return attrs, len(fields) - 1
}

// checkDatLines checks a .dat file and returns its separation line and
// the number of runs.
func checkDatLines(t *testing.T, file string, l []string) (separation string, runs int) {
	t.Helper()
	for i, line := range l {
		switch {
		case strings.HasPrefix(line, `"`):
			if !datSeparation.MatchString(line) {
				t.Errorf("%s:%d: separation line %q", file, i+1, line)
			}
			if separation == "" {
				separation = line
			}
			runs++
		case !datRecord.MatchString(line):
			t.Errorf("%s:%d: record %q does not have the example's form", file, i+1, line)
		}
	}
	return separation, runs
}

// columns returns the names of a separation line.
func columns(l string) []string {
	var out []string
	for _, f := range strings.Split(strings.TrimSpace(l), `"`) {
		if strings.TrimSpace(f) != "" {
			out = append(out, f)
		}
	}
	return out
}

// TestIOHprofilerFormat checks what we write field by field against
// IOHanalyzer's example data: the .info lines (name = value pairs and
// their order, the comment line, the data file's path and the runs with
// their number format) and the .dat files (separation line, the five
// data columns, numbers and separators).
func TestIOHprofilerFormat(t *testing.T) {
	exAttrs, exRuns := checkInfoLines(t, exampleInfo, lines(t, exampleInfo))
	exSep, exDatRuns := checkDatLines(t, exampleDat, lines(t, exampleDat))
	if exRuns != 10 || exDatRuns != 10 || exAttrs["funcId"] != "1" || exAttrs["DIM"] != "100" {
		t.Fatalf("the example has %d runs in its .info and %d in its .dat, funcId %s DIM %s: want 10, 10, 1, 100",
			exRuns, exDatRuns, exAttrs["funcId"], exAttrs["DIM"])
	}
	exColumns := columns(exSep)

	dir := t.TempDir()
	write(t, runexport.NewIOHprofiler(dir), fixture())
	infos, _ := filepath.Glob(filepath.Join(dir, "*", "*.info"))
	if len(infos) != 4 {
		t.Fatalf("wrote %d .info files, want 4", len(infos))
	}
	for _, info := range infos {
		name := filepath.Base(info)
		attrs, runs := checkInfoLines(t, name, lines(t, info))
		if want := "IOHprofiler_f" + attrs["funcId"] + "_"; !strings.HasPrefix(name, want) {
			t.Errorf("%s: want a name starting with %s as IOHexperimenter writes it", name, want)
		}
		if attrs["maximization"] != "F" || attrs["suite"] != runexport.IOHSuite || attrs["funcName"] == "" {
			t.Errorf("%s: maximization %q suite %q funcName %q: want F, %s and a name", name, attrs["maximization"], attrs["suite"], attrs["funcName"], runexport.IOHSuite)
		}
		datPath := strings.Split(lines(t, info)[2], ", ")[0]
		dl := lines(t, filepath.Join(filepath.Dir(info), datPath))
		sep, datRuns := checkDatLines(t, datPath, dl)
		if datRuns != runs {
			t.Errorf("%s: %d runs, its .dat %d", name, runs, datRuns)
		}
		cols := columns(sep)
		if !slices.Equal(cols[:5], exColumns[:5]) {
			t.Errorf("%s: columns %q, want the example's first five %q", datPath, cols, exColumns[:5])
		}
		if !slices.Equal(cols, runexport.IOHColumns) {
			t.Errorf("%s: columns %q, want %q", datPath, cols, runexport.IOHColumns)
		}
	}
}

// TestIOHprofilerStructure reads back every .info and .dat file written
// and checks that every run and every trajectory point is there, with the
// values it was given.
func TestIOHprofilerStructure(t *testing.T) {
	dir := t.TempDir()
	runs := fixture()
	write(t, runexport.NewIOHprofiler(dir), runs)
	sets, err := runexport.ReadIOHprofilerDir(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	checkExport(t, sets, runs)
}

// checkExport checks the data sets read back against the runs written:
// one data set per configuration and puzzle, each run (but those that
// ended in error or were canceled) with its seed, final effort and best
// cost, and every trajectory point in order, then the final state when the
// points stop short of it.
func checkExport(t *testing.T, sets []runexport.DataSet, runs []fixtureRun) {
	t.Helper()
	type key struct {
		alg, fid string
	}
	byKey := map[key]*runexport.DataSet{}
	for i := range sets {
		ds := &sets[i]
		k := key{ds.Block.Attrs["algId"], ds.Block.Attrs["funcId"]}
		if byKey[k] != nil {
			t.Fatalf("two data sets for algorithm %s on function %s", k.alg, k.fid)
		}
		byKey[k] = ds
	}
	next := map[key]int{}
	written := 0
	for _, fr := range runs {
		r := fr.run
		if r.Run.Status == "error" || r.Run.Status == "canceled" {
			continue
		}
		written++
		alg := strings.TrimSpace(strings.NewReplacer(",", " ", `"`, " ").Replace(r.Config))
		k := key{alg, strconv.FormatInt(r.Run.PuzzleID, 10)}
		ds := byKey[k]
		if ds == nil {
			t.Errorf("run %d: no data set for algorithm %q on function %s", r.Run.ID, k.alg, k.fid)
			continue
		}
		i := next[k]
		next[k]++
		if i >= len(ds.Runs) {
			t.Errorf("run %d: %s has only %d runs", r.Run.ID, ds.InfoFile, len(ds.Runs))
			continue
		}
		if got, want := ds.Block.Attrs["DIM"], strconv.Itoa(r.FreeCells()); got != want {
			t.Errorf("%s: DIM %s, want %s free cells", ds.InfoFile, got, want)
		}
		final := max(r.FinalEffort(), 1)
		ir := ds.Block.Runs[i]
		if ir.Instance != float64(r.Run.Seed) || ir.Runtime != final || ir.Best != float64(*r.Run.BestCost) {
			t.Errorf("run %d: %s has %v:%d|%g, want %d:%d|%d", r.Run.ID, ds.InfoFile, ir.Instance, ir.Runtime, ir.Best, r.Run.Seed, final, *r.Run.BestCost)
		}
		rows := ds.Runs[i].Rows
		first := final
		if len(fr.points) > 0 {
			first = max(r.PointEffort(&fr.points[0]), 1)
		}
		if first > 1 {
			// The row at runtime 1 with the worst cost.
			worst := float64(runexport.WorstCost(r.Size))
			if want := []float64{1, math.NaN(), worst, math.NaN(), worst, 0, math.NaN(), 0}; !sameRow(rows[0], want) {
				t.Errorf("run %d starts at %g: first row %v, want %v", r.Run.ID, float64(first), rows[0], want)
			}
			rows = rows[1:]
		}
		for j, p := range fr.points {
			if j >= len(rows) {
				t.Errorf("run %d: point %d missing from %s", r.Run.ID, j, ds.DatFile)
				break
			}
			cur := math.NaN()
			if p.CurrentCost != nil {
				cur = *p.CurrentCost
			}
			want := []float64{float64(max(r.PointEffort(&p), 1)), cur, float64(p.BestCost), cur, float64(p.BestCost),
				float64(p.Generation), math.Round(p.ElapsedSeconds*1e6) / 1e6, float64(p.Restarts)}
			if !sameRow(rows[j], want) {
				t.Errorf("run %d point %d: %s has %v, want %v", r.Run.ID, j, ds.DatFile, rows[j], want)
			}
		}
		extra := rows[len(fr.points):]
		last := rows[len(rows)-1]
		switch {
		case len(fr.points) == 0 || float64(final) > float64(max(r.PointEffort(&fr.points[len(fr.points)-1]), 1)):
			secs := math.NaN()
			if r.Run.WallSeconds != nil {
				secs = *r.Run.WallSeconds
			}
			want := []float64{float64(final), math.NaN(), float64(*r.Run.BestCost), math.NaN(), float64(*r.Run.BestCost),
				float64(r.Run.Generations), secs, float64(r.Run.Restarts)}
			if len(extra) != 1 || !sameRow(last, want) {
				t.Errorf("run %d: rows after the points %v, want one final row %v", r.Run.ID, extra, want)
			}
		case len(extra) != 0:
			t.Errorf("run %d: %d rows after the points, want none", r.Run.ID, len(extra))
		}
		if last[0] != float64(ir.Runtime) {
			t.Errorf("run %d: the last row is at %g, the run's runtime %d", r.Run.ID, last[0], ir.Runtime)
		}
	}
	total := 0
	for _, ds := range sets {
		total += len(ds.Runs)
		if ds.Block.Attrs["maximization"] != "F" {
			t.Errorf("%s: maximization %q, want F", ds.InfoFile, ds.Block.Attrs["maximization"])
		}
	}
	if total != written {
		t.Errorf("read back %d runs, wrote %d", total, written)
	}
}

// sameRow compares rows, NaN equal to NaN.
func sameRow(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) })
}

// TestReadIOHanalyzerExample reads IOHanalyzer's example data with the
// reader the structural checks use.
func TestReadIOHanalyzerExample(t *testing.T) {
	sets, err := runexport.ReadIOHprofilerDir(os.DirFS(exampleDir))
	if err != nil {
		t.Fatal(err)
	}
	if len(sets) != 1 {
		t.Fatalf("%d data sets, want 1", len(sets))
	}
	ds := sets[0]
	if ds.Block.Attrs["algId"] != "ONE_PLUS_LAMDA_EA" || ds.Block.Attrs["suite"] != "PBO" || len(ds.Runs) != 10 {
		t.Errorf("read %v with %d runs", ds.Block.Attrs, len(ds.Runs))
	}
	for i, r := range ds.Runs {
		if len(r.Columns) != 8 || r.Rows[len(r.Rows)-1][2] != 100 || ds.Block.Runs[i].Runtime != 5000 {
			t.Errorf("run %d: %d columns, ends at %v, runtime %d", i+1, len(r.Columns), r.Rows[len(r.Rows)-1], ds.Block.Runs[i].Runtime)
		}
	}
}

func TestReadErrors(t *testing.T) {
	info := func(s string) error {
		_, err := runexport.ReadInfo(strings.NewReader(s), "f.info")
		return err
	}
	dat := func(s string) error {
		_, err := runexport.ReadDat(strings.NewReader(s), "f.dat")
		return err
	}
	good := "suite = \"s\", funcId = 1, DIM = 5, algId = \"a\"\n%\ndata_f1/x.dat, 1:10|0.00000e+00\n"
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"info ok", info(good), ""},
		{"info empty", info(""), "f.info: no meta-data block"},
		{"info short block", info(good + "suite = \"s\"\n"), "f.info:4: block of 1 lines"},
		{"info no funcId", info("DIM = 5, algId = a\n%\nd.dat, 1:1|0\n"), "f.info:1: no funcId"},
		{"info pair", info("funcId = 1, DIM, algId = a\n%\nd.dat, 1:1|0\n"), `f.info:1: "DIM" is not name = value`},
		{"info DIM", info("funcId = 1, DIM = five, algId = a\n%\nd.dat, 1:1|0\n"), `f.info:1: DIM "five" is not a number`},
		{"info twice", info("funcId = 1, funcId = 2, DIM = 5, algId = a\n%\nd.dat, 1:1|0\n"), "f.info:1: funcId given twice"},
		{"info comment", info("funcId = 1, DIM = 5, algId = a\n#\nd.dat, 1:1|0\n"), "f.info:2: comment line"},
		{"info no runs", info("funcId = 1, DIM = 5, algId = a\n%\nd.dat\n"), "f.info:3: no runs"},
		{"info run", info("funcId = 1, DIM = 5, algId = a\n%\nd.dat, 1-1|0\n"), "f.info:3: run 1 \"1-1|0\": want instance:runtime|best"},
		{"info runtime", info("funcId = 1, DIM = 5, algId = a\n%\nd.dat, 1:1|0, 2:0|0\n"), `f.info:3: run 2: runtime "0" is not a positive integer`},
		{"info best", info("funcId = 1, DIM = 5, algId = a\n%\nd.dat, 1:1|x\n"), `f.info:3: run 1: best-so-far "x" is not a number`},
		{"dat ok", dat("\"a\" \"b\"\n1 2\n\"a\" \"b\"\n3 NA\n"), ""},
		{"dat empty", dat(""), "f.dat: no runs"},
		{"dat record first", dat("1 2\n"), "f.dat:1: a record before the first separation line"},
		{"dat fields", dat("\"a\" \"b\"\n1 2 3\n"), "f.dat:2: 3 fields, want 2 (the columns of line 1)"},
		{"dat number", dat("\"a\" \"b\"\n1 x\n"), `f.dat:2: b "x" is not a number`},
		{"dat empty run", dat("\"a\" \"b\"\n\"a\" \"b\"\n1 2\n"), "f.dat:2: the run of line 1 has no records"},
		{"dat last run empty", dat("\"a\" \"b\"\n1 2\n\"a\" \"b\"\n"), "f.dat:3: the run of line 3 has no records"},
		{"dat separation", dat("\"a\" b\n1 2\n"), "f.dat:1: separation line: \"b\" is not a double-quoted column name"},
		{"dat one column", dat("\"a\"\n1\n"), "f.dat:1: separation line: 1 columns"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			switch {
			case tt.want == "" && tt.err != nil:
				t.Errorf("error %v", tt.err)
			case tt.want != "" && (tt.err == nil || !strings.Contains(tt.err.Error(), tt.want)):
				t.Errorf("error %v, want one containing %q", tt.err, tt.want)
			}
		})
	}
}

// TestReadDirErrors checks that a data file disagreeing with its .info
// file is reported.
func TestReadDirErrors(t *testing.T) {
	info := "funcId = 1, DIM = 5, maximization = \"F\", algId = a\n%\nd/x.dat, 1:10|2.00000e+00\n"
	tests := []struct{ name, info, dat, want string }{
		{"fewer runs", info, "\"a\" \"b\" \"c\"\n10 2 2\n\"a\" \"b\" \"c\"\n5 1 1\n", "1 runs of d/x.dat are in no block"},
		{"more runs", strings.Replace(info, "1:10|2.00000e+00", "1:10|2.00000e+00, 2:5|1", 1), "\"a\" \"b\" \"c\"\n10 2 2\n", "2 runs, but d/x.dat has 1 left"},
		{"best", info, "\"a\" \"b\" \"c\"\n10 3 3\n", "ends with best-so-far 3, a.info says 2"},
		{"runtime", info, "\"a\" \"b\" \"c\"\n11 2 2\n", "goes on to runtime 11"},
		{"runtime order", info, "\"a\" \"b\" \"c\"\n5 2 2\n4 2 2\n", "record 2: runtime 4 after 5"},
		{"worse best", info, "\"a\" \"b\" \"c\"\n5 1 1\n10 2 2\n", "record 2: best-so-far 2 after 1"},
		{"maximization", strings.Replace(info, `"F"`, `"maybe"`, 1), "\"a\" \"b\" \"c\"\n10 2 2\n", `maximization "maybe"`},
		{"columns", info, "\"a\" \"b\"\n10 2\n", "2 columns"},
		{"no data file", strings.Replace(info, "d/x.dat", "d/y.dat", 1), "\"a\" \"b\" \"c\"\n10 2 2\n", "a.info:3: data file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "d"), 0o755)
			os.WriteFile(filepath.Join(dir, "a.info"), []byte(tt.info), 0o644)
			os.WriteFile(filepath.Join(dir, "d", "x.dat"), []byte(tt.dat), 0o644)
			_, err := runexport.ReadIOHprofilerDir(os.DirFS(dir))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
	if _, err := runexport.ReadIOHprofilerDir(os.DirFS(t.TempDir())); err == nil || !strings.Contains(err.Error(), "no .info files") {
		t.Errorf("empty folder: error %v", err)
	}
}

// FuzzReadInfo feeds ReadInfo arbitrary text, seeded with the example and
// what we write: it must not panic, and what it accepts must be whole.
func FuzzReadInfo(f *testing.F) {
	for _, s := range seeds(f, ".info") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		blocks, err := runexport.ReadInfo(strings.NewReader(s), "fuzz.info")
		if err != nil {
			return
		}
		for _, b := range blocks {
			if len(b.Runs) == 0 || b.DataFile == "" || len(b.Names) != len(b.Attrs) {
				t.Fatalf("accepted an incomplete block %+v", b)
			}
			for _, r := range b.Runs {
				if r.Runtime < 1 {
					t.Fatalf("accepted runtime %d", r.Runtime)
				}
			}
		}
	})
}

// FuzzReadDat feeds ReadDat arbitrary text, seeded with the example and
// what we write.
func FuzzReadDat(f *testing.F) {
	for _, s := range seeds(f, ".dat") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		runs, err := runexport.ReadDat(strings.NewReader(s), "fuzz.dat")
		if err != nil {
			return
		}
		for _, r := range runs {
			if len(r.Rows) == 0 || len(r.Columns) < 2 {
				t.Fatalf("accepted a run with %d rows and %d columns", len(r.Rows), len(r.Columns))
			}
			for _, row := range r.Rows {
				if len(row) != len(r.Columns) {
					t.Fatalf("row %v under %d columns", row, len(r.Columns))
				}
			}
		}
	})
}

// seeds returns the example's files and the golden output's with the
// extension ext, the golden ones cut out of testdata/golden/iohprofiler.txt.
func seeds(f *testing.F, ext string) []string {
	var out []string
	for _, p := range []string{exampleInfo, exampleDat} {
		if strings.HasSuffix(p, ext) {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			out = append(out, string(b))
		}
	}
	file, err := os.Open(filepath.Join("testdata", "golden", "iohprofiler.txt"))
	if err != nil {
		f.Fatal(err)
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	var cur *strings.Builder
	for sc.Scan() {
		l := sc.Text()
		if name, ok := strings.CutPrefix(l, "== "); ok {
			if cur != nil {
				out = append(out, cur.String())
			}
			cur = nil
			if strings.HasSuffix(name, ext) {
				cur = &strings.Builder{}
			}
			continue
		}
		if cur != nil {
			fmt.Fprintln(cur, l)
		}
	}
	if cur != nil {
		out = append(out, cur.String())
	}
	return out
}
