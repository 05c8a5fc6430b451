package runexport

import (
	"io"
	"os"
	"path/filepath"
	"strings"
)

// CSVFileName is the file the csv format writes into a folder, and
// RunsFileName the per-run table beside it.
const (
	CSVFileName  = "trajectories.csv"
	RunsFileName = "runs.csv"
)

// Output is the Writer of one export to files, counting the
// configurations and puzzles of the runs it is handed. Its files are
// created, with their folder, on the first write, so that an export that
// finds no runs leaves nothing behind.
type Output struct {
	Writer
	// Where says where the runs go, for a summary.
	Where   string
	files   []*lazyFile
	configs map[string]bool
	puzzles map[int64]bool
}

// NewIOHprofilerOutput returns the output of the iohprofiler format into the
// folder dir.
func NewIOHprofilerOutput(dir string) *Output {
	return newOutput(NewIOHprofiler(dir), dir)
}

// NewCSVOutput returns the output of the csv format at path: "-" writes
// the long table to stdout; FILE.csv writes it there and the per-run table
// beside it in FILE-runs.csv; anything else is a folder receiving
// CSVFileName and RunsFileName.
func NewCSVOutput(path string, stdout io.Writer) *Output {
	if path == "-" {
		return newOutput(NewCSV(stdout), "standard output")
	}
	runsPath := strings.TrimSuffix(path, filepath.Ext(path)) + "-runs.csv"
	if !strings.EqualFold(filepath.Ext(path), ".csv") {
		path, runsPath = filepath.Join(path, CSVFileName), filepath.Join(path, RunsFileName)
	}
	file, runsFile := &lazyFile{path: path}, &lazyFile{path: runsPath}
	o := newOutput(Both(NewCSV(file), NewRunsCSV(runsFile)), path+" and "+runsPath)
	o.files = []*lazyFile{file, runsFile}
	return o
}

func newOutput(w Writer, where string) *Output {
	return &Output{Writer: w, Where: where, configs: map[string]bool{}, puzzles: map[int64]bool{}}
}

// Run writes r and counts its configuration and puzzle.
func (o *Output) Run(r *Run) error {
	o.configs[r.Config] = true
	o.puzzles[r.Run.PuzzleID] = true
	return o.Writer.Run(r)
}

// Configs counts the distinct configurations of the runs written.
func (o *Output) Configs() int { return len(o.configs) }

// Puzzles counts the distinct puzzles of the runs written.
func (o *Output) Puzzles() int { return len(o.puzzles) }

// Finish ends an export of runs runs that stopped with err (nil when it
// read every run): the Writer is closed when runs were written (on an
// error too, so that its files are closed; err says what went wrong),
// then the files. It returns err, else the first error closing.
func (o *Output) Finish(runs int64, err error) error {
	switch {
	case err == nil && runs > 0:
		err = o.Writer.Close()
	case runs > 0:
		o.Writer.Close()
	}
	for _, f := range o.files {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// lazyFile creates its file, and the folder it is in, on the first write.
type lazyFile struct {
	path string
	f    *os.File
}

var _ io.Writer = (*lazyFile)(nil)

func (l *lazyFile) Write(b []byte) (int, error) {
	if l.f == nil {
		if err := os.MkdirAll(filepath.Dir(l.path), 0o755); err != nil {
			return 0, err
		}
		f, err := os.Create(l.path)
		if err != nil {
			return 0, err
		}
		l.f = f
	}
	return l.f.Write(b)
}

// Close closes the file if it was created.
func (l *lazyFile) Close() error {
	if l.f == nil {
		return nil
	}
	return l.f.Close()
}
