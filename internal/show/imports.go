package show

import (
	"fmt"
	"io"
	"strings"
	"time"

	"sudokulab/importers/pipeline"
	"sudokulab/internal/tabular"
)

// Imports reports each file's import as it ends, as import prints it: as
// text for the table format, else as a row (CSV) or an object (JSON) per
// file.
type Imports struct {
	w      io.Writer
	stream *tabular.Stream // nil for text
}

// importColumns are the fields of a file's import in CSV and JSON.
var importColumns = []string{"file", "format", "collection", "collections", "import_id", "skipped", "read", "new",
	"duplicate", "rejected", "undetermined", "resumed_after", "elapsed_seconds", "rejected_lines", "notes"}

// NewImports returns the report of imports written to w in format.
func NewImports(w io.Writer, format string) (*Imports, error) {
	p := &Imports{w: w}
	if format != "table" {
		var err error
		if p.stream, err = tabular.NewStream(w, format, importColumns, nil); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Print reports one file's import.
func (p *Imports) Print(res *pipeline.Result) error {
	if p.stream == nil {
		importText(p.w, res)
		return nil
	}
	im := res.Import
	rejected := make([]string, len(res.Rejected))
	for i, r := range res.Rejected {
		rejected[i] = r.Error()
	}
	var resumed any
	if res.Resumed {
		resumed = res.ResumedAfter
	}
	return p.stream.Write([]any{res.File, res.Format, res.Collection, append([]string{}, res.Collections...), im.ID, res.Skipped,
		im.PuzzlesRead, im.PuzzlesNew, im.PuzzlesDuplicate, im.PuzzlesRejected, res.Undetermined, resumed,
		res.Elapsed.Seconds(), rejected, append([]string{}, res.Notes...)})
}

// Close ends the report.
func (p *Imports) Close() error {
	if p.stream == nil {
		return nil
	}
	return p.stream.Close()
}

// importText reports one file's import as text.
func importText(w io.Writer, res *pipeline.Result) {
	im := res.Import
	if res.Skipped {
		fmt.Fprintf(w, "%s: already imported into collection %s (import %d, %s, %d puzzles): nothing changed\n",
			res.File, res.Collection, im.ID, im.StartedAt.Format(time.RFC3339), im.PuzzlesRead)
		return
	}
	where := "collection " + res.Collection
	if len(res.Collections) > 1 {
		where = "collections " + strings.Join(res.Collections, ", ")
	}
	fmt.Fprintf(w, "%s: %s format, %d read: %d new, %d duplicate, %d rejected; %s (import %d) in %v\n",
		res.File, res.Format, im.PuzzlesRead, im.PuzzlesNew, im.PuzzlesDuplicate, im.PuzzlesRejected,
		where, im.ID, res.Elapsed.Round(time.Millisecond))
	if res.Undetermined > 0 {
		fmt.Fprintf(w, "  %d of the %d puzzles counted left their count undetermined within the budget (count_status 'undetermined'); sudokulab count --collection %s finishes them\n",
			res.Undetermined, res.Checked, res.Collection)
	}
	if res.Resumed {
		fmt.Fprintf(w, "  resumed an interrupted import after the %d records of the file it had stored\n", res.ResumedAfter)
	}
	for _, r := range res.Rejected {
		fmt.Fprintf(w, "  rejected %s\n", r)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
}
