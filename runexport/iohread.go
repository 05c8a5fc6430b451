package runexport

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"strconv"
	"strings"
)

// InfoBlock is one block of an IOHprofiler .info file: the meta-data of
// the runs of one algorithm on one function in one dimension.
type InfoBlock struct {
	// Line is the line of the file the block starts on, 1-based.
	Line int
	// Names lists the names of the first line in order; Attrs maps each
	// to its value, trimmed, with its quotes removed.
	Names []string
	Attrs map[string]string
	// Comment is the second line, '%' included.
	Comment string
	// DataFile is the data file's path, relative to the .info file.
	DataFile string
	// Runs are the runs the third line lists, in order.
	Runs []InfoRun
}

// InfoRun is one run of an InfoBlock: "instance:runtime|best".
type InfoRun struct {
	Instance float64
	Runtime  int64
	Best     float64
}

// DatRun is one run of an IOHprofiler .dat file: its separation line's
// column names and its records.
type DatRun struct {
	// Line is the line of the separation line, 1-based.
	Line int
	// Columns are the column names, without their quotes.
	Columns []string
	// Rows are the records, one value per column; NA is NaN.
	Rows [][]float64
}

// ReadInfo parses an IOHprofiler .info file, as IOHanalyzer reads it:
// blocks of three lines (name = value pairs separated by commas, with
// funcId, DIM and algId required; a comment line starting with '%'; the
// data file followed by ", instance:runtime|best" per run). name is the
// file's name for error messages, which say "name:line: reason".
func ReadInfo(r io.Reader, name string) ([]InfoBlock, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 256<<20)
	var (
		blocks []InfoBlock
		lines  [3]string
		n      int // lines of the current block
		lineNo int
	)
	for sc.Scan() {
		lineNo++
		l := strings.TrimRight(sc.Text(), "\r")
		if n == 0 && strings.TrimSpace(l) == "" {
			continue // blank lines between blocks
		}
		lines[n] = l
		n++
		if n < 3 {
			continue
		}
		n = 0
		b, err := parseInfoBlock(lines, lineNo-2)
		if err != nil {
			return nil, fmt.Errorf("iohprofiler: %s:%w", name, err)
		}
		blocks = append(blocks, b)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("iohprofiler: %s: %w", name, err)
	}
	if n != 0 {
		return nil, fmt.Errorf("iohprofiler: %s:%d: block of %d lines, want 3 (meta-data, comment, data file and runs)", name, lineNo, n)
	}
	if len(blocks) == 0 {
		return nil, fmt.Errorf("iohprofiler: %s: no meta-data block", name)
	}
	return blocks, nil
}

// parseInfoBlock parses the three lines of a block starting on line; its
// errors start with "line: ".
func parseInfoBlock(lines [3]string, line int) (InfoBlock, error) {
	b := InfoBlock{Line: line, Attrs: map[string]string{}, Comment: lines[1]}
	for _, f := range splitOutsideQuotes(lines[0]) {
		k, v, ok := strings.Cut(f, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return b, fmt.Errorf("%d: %q is not name = value", line, strings.TrimSpace(f))
		}
		if _, dup := b.Attrs[k]; dup {
			return b, fmt.Errorf("%d: %s given twice", line, k)
		}
		b.Names = append(b.Names, k)
		b.Attrs[k] = strings.NewReplacer(`"`, "", `'`, "").Replace(strings.TrimSpace(v))
	}
	for _, k := range []string{"funcId", "DIM", "algId"} {
		if _, ok := b.Attrs[k]; !ok {
			return b, fmt.Errorf("%d: no %s", line, k)
		}
	}
	if _, err := strconv.ParseFloat(b.Attrs["DIM"], 64); err != nil {
		return b, fmt.Errorf("%d: DIM %q is not a number", line, b.Attrs["DIM"])
	}
	if !strings.HasPrefix(lines[1], "%") {
		return b, fmt.Errorf("%d: comment line %.40q does not start with %%", line+1, lines[1])
	}
	fields := strings.Split(lines[2], ",")
	b.DataFile = strings.TrimSpace(fields[0])
	if b.DataFile == "" {
		return b, fmt.Errorf("%d: no data file", line+2)
	}
	for i, f := range fields[1:] {
		f = strings.TrimSpace(f)
		inst, rest, ok1 := strings.Cut(f, ":")
		rt, best, ok2 := strings.Cut(rest, "|")
		if !ok1 || !ok2 {
			return b, fmt.Errorf("%d: run %d %q: want instance:runtime|best", line+2, i+1, f)
		}
		var (
			r   InfoRun
			err error
		)
		if r.Instance, err = strconv.ParseFloat(inst, 64); err != nil {
			return b, fmt.Errorf("%d: run %d: instance %q is not a number", line+2, i+1, inst)
		}
		if r.Runtime, err = strconv.ParseInt(rt, 10, 64); err != nil || r.Runtime < 1 {
			return b, fmt.Errorf("%d: run %d: runtime %q is not a positive integer", line+2, i+1, rt)
		}
		if r.Best, err = strconv.ParseFloat(best, 64); err != nil {
			return b, fmt.Errorf("%d: run %d: best-so-far %q is not a number", line+2, i+1, best)
		}
		b.Runs = append(b.Runs, r)
	}
	if len(b.Runs) == 0 {
		return b, fmt.Errorf("%d: no runs after the data file", line+2)
	}
	return b, nil
}

// splitOutsideQuotes splits s at the commas that are not inside double
// quotes, as R's read.csv does with IOHanalyzer's first line.
func splitOutsideQuotes(s string) []string {
	var (
		out   []string
		start int
		in    bool
	)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			in = !in
		case ',':
			if !in {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// ReadDat parses an IOHprofiler .dat file: runs that each start with a
// separation line of double-quoted column names, followed by records of
// one number (or NA) per column, separated by spaces or tabs. name is the
// file's name for error messages, which say "name:line: reason".
func ReadDat(r io.Reader, name string) ([]DatRun, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var (
		runs   []DatRun
		lineNo int
	)
	for sc.Scan() {
		lineNo++
		l := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(l) == "" {
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(l), `"`) {
			cols, err := parseSeparation(l)
			if err != nil {
				return nil, fmt.Errorf("iohprofiler: %s:%d: %w", name, lineNo, err)
			}
			if n := len(runs); n > 0 && len(runs[n-1].Rows) == 0 {
				return nil, fmt.Errorf("iohprofiler: %s:%d: the run of line %d has no records", name, lineNo, runs[n-1].Line)
			}
			runs = append(runs, DatRun{Line: lineNo, Columns: cols})
			continue
		}
		if len(runs) == 0 {
			return nil, fmt.Errorf("iohprofiler: %s:%d: a record before the first separation line", name, lineNo)
		}
		run := &runs[len(runs)-1]
		fields := strings.Fields(l)
		if len(fields) != len(run.Columns) {
			return nil, fmt.Errorf("iohprofiler: %s:%d: %d fields, want %d (the columns of line %d)", name, lineNo, len(fields), len(run.Columns), run.Line)
		}
		row := make([]float64, len(fields))
		for i, f := range fields {
			if f == "NA" {
				row[i] = math.NaN()
				continue
			}
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, fmt.Errorf("iohprofiler: %s:%d: %s %q is not a number", name, lineNo, run.Columns[i], f)
			}
			row[i] = v
		}
		run.Rows = append(run.Rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("iohprofiler: %s: %w", name, err)
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("iohprofiler: %s: no runs", name)
	}
	if last := runs[len(runs)-1]; len(last.Rows) == 0 {
		return nil, fmt.Errorf("iohprofiler: %s:%d: the run of line %d has no records", name, lineNo, last.Line)
	}
	return runs, nil
}

// parseSeparation reads the quoted column names of a separation line.
func parseSeparation(l string) ([]string, error) {
	var cols []string
	s := strings.TrimSpace(l)
	for s != "" {
		if s[0] != '"' {
			return nil, fmt.Errorf("separation line: %.40q is not a double-quoted column name", s)
		}
		end := strings.IndexByte(s[1:], '"')
		if end < 0 {
			return nil, fmt.Errorf("separation line: unterminated column name %.40q", s)
		}
		cols = append(cols, s[1:end+1])
		s = strings.TrimLeft(s[end+2:], " \t")
	}
	if len(cols) < 2 {
		return nil, fmt.Errorf("separation line: %d columns, want the runtime and at least one value", len(cols))
	}
	return cols, nil
}

// DataSet is the runs of one algorithm on one function in one dimension,
// as a .info block and its .dat file give them.
type DataSet struct {
	// InfoFile is the .info file, relative to the folder read.
	InfoFile string
	// Block is its meta-data block.
	Block InfoBlock
	// DatFile is the data file, relative to the folder read, with '/'.
	DatFile string
	// Runs are the runs of the data file, one per run of Block.Runs.
	Runs []DatRun
}

// ReadIOHprofilerDir reads every .info file of fsys (in every
// subfolder, as IOHanalyzer does) and the .dat files they name, and checks
// that they agree: each block's runs are the data file's runs, in order
// (blocks naming the same data file share its runs in file order), and
// each run's last record has the best-so-far value its block gives, at a
// runtime no later than the block's (IOHanalyzer's own example data stops
// recording at the last improvement, before the budget is spent). Within a run the runtime must never decrease, nor the
// best-so-far value get worse (by the block's maximization flag; without
// one, by the first and last records). It returns the data sets in the
// order of the .info files' names.
func ReadIOHprofilerDir(fsys fs.FS) ([]DataSet, error) {
	var infos []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".info") {
			infos = append(infos, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("iohprofiler: %w", err)
	}
	if len(infos) == 0 {
		return nil, fmt.Errorf("iohprofiler: no .info files")
	}
	var sets []DataSet
	for _, info := range infos {
		f, err := fsys.Open(info)
		if err != nil {
			return nil, fmt.Errorf("iohprofiler: %w", err)
		}
		blocks, err := ReadInfo(f, info)
		f.Close()
		if err != nil {
			return nil, err
		}
		// Runs of each data file, taken by its blocks in order.
		dats := map[string][]DatRun{}
		for _, b := range blocks {
			dat := path.Join(path.Dir(info), strings.ReplaceAll(b.DataFile, `\`, "/"))
			runs, ok := dats[dat]
			if !ok {
				f, err := fsys.Open(dat)
				if err != nil {
					return nil, fmt.Errorf("iohprofiler: %s:%d: data file: %w", info, b.Line+2, err)
				}
				runs, err = ReadDat(f, dat)
				f.Close()
				if err != nil {
					return nil, err
				}
			}
			if len(runs) < len(b.Runs) {
				return nil, fmt.Errorf("iohprofiler: %s:%d: %d runs, but %s has %d left", info, b.Line+2, len(b.Runs), dat, len(runs))
			}
			ds := DataSet{InfoFile: info, Block: b, DatFile: dat, Runs: runs[:len(b.Runs)]}
			dats[dat] = runs[len(b.Runs):]
			if err := ds.check(); err != nil {
				return nil, err
			}
			sets = append(sets, ds)
		}
		for dat, left := range dats {
			if len(left) > 0 {
				return nil, fmt.Errorf("iohprofiler: %s: %d runs of %s are in no block", info, len(left), dat)
			}
		}
	}
	return sets, nil
}

// check compares each run's records with its block's run.
func (ds *DataSet) check() error {
	var maximize *bool
	if m, ok := ds.Block.Attrs["maximization"]; ok {
		v := strings.EqualFold(m, "T") || strings.EqualFold(m, "TRUE")
		if !v && !strings.EqualFold(m, "F") && !strings.EqualFold(m, "FALSE") {
			return fmt.Errorf("iohprofiler: %s:%d: maximization %q: want T or F", ds.InfoFile, ds.Block.Line, m)
		}
		maximize = &v
	}
	for i, run := range ds.Runs {
		want := ds.Block.Runs[i]
		if len(run.Columns) < 3 {
			return fmt.Errorf("iohprofiler: %s:%d: %d columns, want the runtime, current and best-so-far f(x) at least", ds.DatFile, run.Line, len(run.Columns))
		}
		first, last := run.Rows[0], run.Rows[len(run.Rows)-1]
		up := first[2] <= last[2]
		if maximize != nil {
			up = *maximize
		}
		for j := 1; j < len(run.Rows); j++ {
			prev, row := run.Rows[j-1], run.Rows[j]
			if row[0] < prev[0] {
				return fmt.Errorf("iohprofiler: %s: run of line %d, record %d: runtime %g after %g", ds.DatFile, run.Line, j+1, row[0], prev[0])
			}
			if (up && row[2] < prev[2]) || (!up && row[2] > prev[2]) {
				return fmt.Errorf("iohprofiler: %s: run of line %d, record %d: best-so-far %g after %g", ds.DatFile, run.Line, j+1, row[2], prev[2])
			}
		}
		if last[0] > float64(want.Runtime) {
			return fmt.Errorf("iohprofiler: %s: run %d (line %d) goes on to runtime %g, %s says it used %d", ds.DatFile, i+1, run.Line, last[0], ds.InfoFile, want.Runtime)
		}
		if last[2] != want.Best {
			return fmt.Errorf("iohprofiler: %s: run %d (line %d) ends with best-so-far %g, %s says %g", ds.DatFile, i+1, run.Line, last[2], ds.InfoFile, want.Best)
		}
	}
	return nil
}
