package runexport

import (
	"errors"
	"fmt"
	"io"
	"os"

	"sudokulab"
)

// Open returns the output of export-runs in format (iohprofiler or csv)
// at path (its -o; see NewIOHprofilerOutput and NewCSVOutput), or an
// EINVALID error in the words of --format and -o: no format, another
// one, or for iohprofiler standard output or a folder that is not new or
// empty. It writes nothing.
func Open(format, path string, stdout io.Writer) (*Output, error) {
	switch format {
	case "iohprofiler":
		if path == "-" {
			return nil, sudokulab.Errorf(sudokulab.EINVALID, "-o -: the iohprofiler format is a folder of files; name one")
		}
		if err := newOrEmptyDir(path); err != nil {
			return nil, err
		}
		return NewIOHprofilerOutput(path), nil
	case "csv":
		return NewCSVOutput(path, stdout), nil
	case "":
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "export-runs needs --format iohprofiler or --format csv")
	}
	return nil, sudokulab.Errorf(sudokulab.EINVALID, "--format %q: want iohprofiler or csv", format)
}

// newOrEmptyDir returns an EINVALID error if dir exists and is not an
// empty folder.
func newOrEmptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return sudokulab.Errorf(sudokulab.EINVALID, "-o %s: %v", dir, err)
	case len(entries) > 0:
		return sudokulab.Errorf(sudokulab.EINVALID, "-o %s: the folder is not empty; name a new or empty one", dir)
	}
	return nil
}

// Report says what an export in format wrote: its runs, points, rows,
// configurations, puzzles and files, where, and the runs left out.
func (o *Output) Report(format string) string {
	s := o.Summary()
	msg := fmt.Sprintf("exported %d runs (%d trajectory points, %d rows) of %d configurations on %d puzzles to %s (%s)",
		s.Runs, s.Points, s.Rows, o.Configs(), o.Puzzles(), o.Where, format)
	if len(s.Files) > 0 {
		msg += fmt.Sprintf(", %d files", len(s.Files))
	}
	if s.Skipped > 0 {
		msg += fmt.Sprintf("; left out %d runs (%s)", s.Skipped, s.SkippedWhy)
	}
	return msg
}
