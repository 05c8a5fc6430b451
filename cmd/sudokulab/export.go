package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/importers"
)

type exportOptions struct {
	*options
	where, collection, fileFormat, output string
}

func newExportCmd(opts *options) *cobra.Command {
	o := &exportOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write puzzles selected with SQL or by collection to a file in a puzzle format",
		Long: `export writes the puzzles of --collection (in its order) or those matching
--where (a SQL predicate over the view puzzle_catalog, in order of id), or
both, with their solutions, labels, metadata and ratings as far as the
format holds them (see sudokulab formats). Formats holding one puzzle per
file (sdk, ss) write a file per puzzle into the folder -o names. Importing
the file again gives the same puzzles and metadata.`,
		Example: `  sudokulab export --collection top1465 --format csv -o top1465.csv
  sudokulab export --where "givens <= 17" --format line -o seventeen.txt
  sudokulab export --collection paper-puzzles --format sdk -o paper/
  sudokulab export --collection easy --format opensudoku -o easy.opensudoku`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExport(cmd.Context(), cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.where, "where", "", whereHelp)
	f.StringVar(&o.collection, "collection", "", "export this collection, in its order")
	f.StringVar(&o.fileFormat, "format", "line", "file format (see sudokulab formats)")
	f.StringVarP(&o.output, "output", "o", "-", "file to write, - for standard output; a folder for sdk and ss")
	return cmd
}

func runExport(ctx context.Context, cmd *cobra.Command, o *exportOptions) error {
	format, err := importers.Default().Lookup(o.fileFormat)
	if err != nil {
		return err
	}
	if format.Encode == nil {
		return sudokulab.Errorf(sudokulab.EINVALID, "format %s is read only", format.Name)
	}
	if format.OnePerFile && (o.output == "" || o.output == "-") {
		return sudokulab.Errorf(sudokulab.EINVALID, "format %s writes a file per puzzle: name a folder with -o", format.Name)
	}
	d, err := o.openRead(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	ps, err := db.ExportPuzzles(ctx, d, o.where, o.collection)
	if err != nil {
		return err
	}
	recs := make([]importers.Record, len(ps))
	for i, e := range ps {
		if recs[i], err = exportRecord(e); err != nil {
			return err
		}
	}
	stderr := cmd.ErrOrStderr()
	if format.OnePerFile {
		n, err := exportFiles(o.output, format, recs, ps)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "exported %d puzzles to %d %s files in %s\n", len(recs), n, format.Name, o.output)
		return nil
	}
	w := cmd.OutOrStdout()
	var f *os.File
	if o.output != "" && o.output != "-" {
		if f, err = os.Create(o.output); err != nil {
			return sudokulab.WrapError(sudokulab.EINVALID, err, "export")
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	if err := format.Encode(bw, recs); err != nil {
		return sudokulab.WrapError(sudokulab.EINVALID, err, "export %s", format.Name)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if f != nil {
		if err := f.Close(); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		fmt.Fprintf(stderr, "exported %d puzzles to %s (%s)\n", len(recs), o.output, format.Name)
	}
	return nil
}

// exportRecord turns a stored puzzle into a record for an encoder.
func exportRecord(e db.ExportedPuzzle) (importers.Record, error) {
	r := importers.Record{Grid: e.Puzzle.Givens, Solution: e.Puzzle.Solution, Label: e.Membership.Label,
		Collection: e.Membership.Collection, Line: e.Membership.SourceLine}
	if m := e.Membership.Metadata; m != "" {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(m), &raw); err != nil {
			return r, fmt.Errorf("export: puzzle %d: metadata: %w", e.Puzzle.ID, err)
		}
		r.Metadata = make(map[string]string, len(raw))
		for k, v := range raw {
			var s string
			if json.Unmarshal(v, &s) != nil {
				s = string(v)
			}
			r.Metadata[k] = s
		}
	}
	for _, x := range e.Ratings {
		if x.Value != nil {
			r.Ratings = append(r.Ratings, importers.Rating{Rater: x.Rater, Value: *x.Value})
		}
	}
	return r, nil
}

// exportFiles writes a file per puzzle into dir, named after the label
// (or the puzzle id), and returns how many.
func exportFiles(dir string, format *importers.Format, recs []importers.Record, ps []db.ExportedPuzzle) (int, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, sudokulab.WrapError(sudokulab.EINVALID, err, "export")
	}
	ext := ".txt"
	if len(format.Extensions) > 0 {
		ext = format.Extensions[0]
	}
	used := map[string]bool{}
	for i, r := range recs {
		name := fileName(r.Label)
		if name == "" || used[name] {
			name = fmt.Sprintf("puzzle-%d", ps[i].Puzzle.ID)
		}
		used[name] = true
		f, err := os.Create(filepath.Join(dir, name+ext))
		if err != nil {
			return i, sudokulab.WrapError(sudokulab.EINVALID, err, "export")
		}
		err = format.Encode(f, []importers.Record{r})
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return i, sudokulab.WrapError(sudokulab.EINVALID, err, "export puzzle %d", ps[i].Puzzle.ID)
		}
	}
	return len(recs), nil
}

// fileName returns a label as a safe file name, or "".
func fileName(label string) string {
	s := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		case r == ' ':
			return '_'
		}
		return -1
	}, label)
	s = strings.Trim(s, ".")
	if len(s) > 100 {
		s = s[:100]
	}
	return s
}
