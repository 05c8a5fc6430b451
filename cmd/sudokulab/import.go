package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/importers/pipeline"
	"sudokulab/internal/progress"
	"sudokulab/internal/show"
)

type importOptions struct {
	*options
	decodeFlags
	fileFormat, collection     string
	description                string
	skipInvalid, requireUnique bool
	addToFrozen                bool
	jobs                       int
	countTimeout               time.Duration
	pipeLimitMiB               int64
}

func newImportCmd(opts *options) *cobra.Command {
	o := &importOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "import FILE...",
		Short: "Import puzzle files of any common format, with provenance and without duplicates",
		Long: `import reads puzzle files (see sudokulab formats; the format is detected from
the extension and the content unless --format names it) and stores every
puzzle once, in --collection (default: a collection named after the file),
remembering for each puzzle the file's line, name and metadata, and each
file's checksum, format and counts in the imports table. A collection the
import creates is described as "imported from FILE (FORMAT)", or by
--description: where the puzzles come from, such as the program, version and
command line that generated them.

Every puzzle is checked against the rules, its solutions are counted with
the exact solver (0, 1, or 2 meaning two or more; the solution is stored
when unique), a solution the file gives must be right, and 9x9 puzzles get
their symmetry-canonical form. Counting takes at most --count-timeout per
puzzle (default 10s; large grids at 40-50% given can take hours): a count
cut short is stored as undetermined (count_status 'undetermined', the
solution if one was found), and sudokulab count finishes it later; with
--require-unique such a puzzle is rejected. A file with a bad entry imports nothing and
the error names the file, the line and the reason; --skip-invalid imports
the valid puzzles instead and lists every rejected line. Importing the same
file into the same collection again changes nothing.

What the lab knows already stays: a rating the file gives under the name of
one of the lab's raters (a rating:human column of sudokulab export) is kept
as the file's claim, rater file:human, beside the lab's own, and left out when
it equals it; no rating of the file replaces one the puzzle has under that
name (the notes count those that differ); a frozen collection (sudokulab collections add) gets no puzzle
unless --add-to-frozen is given: a puzzle the file puts in one goes to the
file's own collection instead, with a note. So importing the lab's own export
changes no rating and no collection.

The puzzles are written in short transactions, so other processes can
write to the database meanwhile, and they appear to readers all at once when
the file is done. Ctrl-C (or a crash) keeps what was stored, hidden; the same
command again resumes after it without checking those puzzles again. A file
another process is importing into the collection is a conflict (exit 4).

A FILE that is not a regular file (a pipe, <(...), a device) is read once
into a temporary file in $TMPDIR, at most --pipe-limit MiB (2048 by default;
more is an error), and the temporary file is gone however the import ends.`,
		Example: `  sudokulab import puzzles.sdm
  sudokulab import top1465.txt --collection top1465 --require-unique
  sudokulab import fiendish.txt --collection kennett-fiendish --description "sudoku 1.0.5-2.1 (Debian): sudoku -g1000 -cfiendish -fcompact"
  sudokulab import hardest.csv --skip-invalid
  sudokulab import 25x25-45pct.txt --count-timeout 1s
  sudokulab import board.json game.opensudoku 16x16.txt --symbols 0-F
  sudokulab import table.csv --puzzle-column grid --solution-column answer --rating-column score=my-score`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runImport(cmd.Context(), cmd, o, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.fileFormat, "format", "", "the files' format (default: detected; see sudokulab formats); the output format is --output-format")
	f.StringVar(&o.collection, "collection", "", "collection the puzzles of every file go to (default: each file's base name; two files of one name from different folders need it)")
	f.StringVar(&o.description, "description", "", "where the puzzles come from, for the collections the import creates or that have no description yet, e.g. the program, version and command line that generated them (default: \"imported from FILE (FORMAT)\")")
	o.decodeFlags.register(f, "")
	o.decodeFlags.registerRatings(f)
	f.BoolVar(&o.addToFrozen, "add-to-frozen", false, "add puzzles to frozen collections (made by collections add), which imports leave alone otherwise")
	f.BoolVar(&o.skipInvalid, "skip-invalid", false, "import the valid puzzles of a file with bad entries and list the rejected ones")
	f.BoolVar(&o.requireUnique, "require-unique", false, "reject puzzles without exactly one solution")
	f.IntVar(&o.jobs, "jobs", runtime.NumCPU(), "goroutines counting solutions")
	f.DurationVar(&o.countTimeout, "count-timeout", pipeline.DefaultCountTimeout,
		"time to count one puzzle's solutions before its count is stored as undetermined (0: the default, negative: no limit)")
	f.Int64Var(&o.pipeLimitMiB, "pipe-limit", pipeline.DefaultSpoolLimit>>20,
		"most MiB read from a pipe or device, which is kept in a temporary file in $TMPDIR while it is imported (negative: no limit)")
	return cmd
}

func runImport(ctx context.Context, cmd *cobra.Command, o *importOptions, files []string) error {
	if os.Getenv("GOGC") == "" {
		// An import's live heap is small (a few batches in flight) and
		// its garbage plentiful (records, keys and rows of every line):
		// collecting at 400 % growth instead of 100 % took 7 % off its CPU
		// (17-clue list, five alternating runs: 2.13 -> 1.99 s).
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	popts := pipeline.Options{
		Format:        o.fileFormat,
		Collection:    o.collection,
		Description:   o.description,
		AddToFrozen:   o.addToFrozen,
		SkipInvalid:   o.skipInvalid,
		RequireUnique: o.requireUnique,
		Workers:       o.jobs,
		CountTimeout:  o.countTimeout,
		Progress:      progress.NewImports(cmd.ErrOrStderr()),
	}
	var err error
	if popts.SpoolLimit, err = pipeline.SpoolLimitMiB(o.pipeLimitMiB); err != nil {
		return err
	}
	if err := checkJobs(o.jobs); err != nil {
		return err
	}
	fr, err := fileReaderOf(o.fileFormat, &o.decodeFlags)
	if err != nil {
		return err
	}
	popts.Decode = fr.Decode
	d, err := o.open(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	pr, err := show.NewImports(cmd.OutOrStdout(), o.format)
	if err != nil {
		return err
	}
	err = pipeline.ImportFiles(ctx, d, files, popts, o.jobs, func(file string, res *pipeline.Result, err error) error {
		if err := importDone(cmd, file, res, err); err != nil {
			return err
		}
		return pr.Print(res)
	})
	return errors.Join(fileFormatHint(err, o.fileFormat), pr.Close())
}

// fileFormatHint adds to an import's EINVALID error, when --format named
// json or csv, that --format is the file format, not the output format:
// the old global --format json became --output-format json (-O json).
func fileFormatHint(err error, format string) error {
	if err == nil || sudokulab.ErrorCode(err) != sudokulab.EINVALID || (format != "json" && format != "csv") {
		return err
	}
	return sudokulab.WrapError(sudokulab.EINVALID, err, "--format %s reads the files as %s (--format is the files' format); for %s output use --output-format %s (-O %s)",
		format, format, format, format, format)
}

// importDone reports an interrupted import and returns err.
func importDone(cmd *cobra.Command, file string, res *pipeline.Result, err error) error {
	if errors.Is(err, context.Canceled) && res != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: interrupted; the %d puzzles stored so far stay hidden until the same command resumes the import\n",
			file, res.Import.PuzzlesNew+res.Import.PuzzlesDuplicate)
	}
	return err
}
