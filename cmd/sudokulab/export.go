package main

import (
	"context"
	"fmt"

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
both, with their solutions, labels, metadata, ratings and tags as far as
the format holds them (see sudokulab formats; csv and json hold tags). Formats holding one puzzle per
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
	ids := make([]int64, len(ps))
	for i, e := range ps {
		if recs[i], err = importers.StoredRecord(e.Puzzle, e.Membership, e.Ratings, e.Tags); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		ids[i] = e.Puzzle.ID
	}
	stderr := cmd.ErrOrStderr()
	if format.Caveat != nil {
		if c := format.Caveat(recs); c != "" {
			fmt.Fprintf(stderr, "note: %s\n", c)
		}
	}
	if format.OnePerFile {
		n, err := format.EncodeFiles(o.output, recs, ids)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "exported %d puzzles to %d %s files in %s\n", len(recs), n, format.Name, o.output)
		return nil
	}
	if err := format.EncodeFile(cmd.OutOrStdout(), o.output, recs); err != nil {
		return err
	}
	if o.output != "" && o.output != "-" {
		fmt.Fprintf(stderr, "exported %d puzzles to %s (%s)\n", len(recs), o.output, format.Name)
	}
	return nil
}
