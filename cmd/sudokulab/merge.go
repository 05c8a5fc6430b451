package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/show"
)

type mergeOptions struct {
	*options
	failOnConflict bool
	skipInvalid    bool
	batch          int
}

func newMergeCmd(opts *options) *cobra.Command {
	o := &mergeOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "merge SRC...",
		Short: "Merge other labs (such as the files of a cluster's shards) into --db",
		Long: `merge copies every source database (a SQLite file or a postgres:// URL) into
the database named by --db, which must exist. Rows are matched by what
they are, never by their ids: puzzles by box shape and givens, collections
and experiments by name, configurations by solver and settings, ratings by
puzzle and rater, tags (puzzle_tags) by puzzle and tag, imports by file
checksum, collection and start time, runs by puzzle, configuration, seed and
budget (with their trajectories and the experiments they belong to), and the
work queue by experiment and run.
What the destination lacks is added; a puzzle gains the solution, solution
count or symmetry form it lacks; work the destination has pending and a
source has done becomes done. A collection frozen in the destination
(collections add) gains no puzzle: each is reported as a conflict.

Merging the same source again changes nothing. Different content under one
identity (a run with another result, a rating with another value, a
configuration name given to other settings) is a conflict: the destination
keeps its own, and the conflict is listed on standard error. Conflicts do
not change the exit status unless --fail-on-conflict is given (exit 4).

Every source is checked before anything of it is written, as import and
run check what they store: puzzles and their solutions against the rules,
the final grids of solved runs (a solution that keeps the givens),
configurations of solvers this program runs with parameters they declare,
JSON columns (parameters, options, details, metadata) that parse, tags as
serve --write accepts them (not empty, no control character), and text
within bounds (names 1 KiB, labels 1 KiB, other text 1 MiB, JSON 16 MiB).
A source that fails is refused whole with the first few reasons (table,
row id, what is wrong) and exit status 2, and nothing of it is merged;
with --skip-invalid it is merged without the invalid rows and the rows
that depend on them, each listed on standard error. A SQLite source whose
numeric columns hold text cannot be read and is refused even then.

The sources are only read. The destination is written in short
transactions (a few hundred runs with their trajectories each), so other
commands can use it meanwhile, and an interrupted merge resumes when run
again. The sources are merged one after the other: when one fails, those
before it stay merged, it leaves nothing if its checks refused it (or the
transactions it committed, for an error while writing, which merging it
again completes), and those after it are not merged, as standard error
says. The table printed at the end counts, for each source and kind of
row, the rows added, already there, updated, in conflict, skipped, and
left out as invalid.

A cluster without a database server: every task of a job array runs its
slice of one plan (run --shard K/N) into its own copy of lab.db, and one
last job merges the copies. Give every task the same --experiment, so that
the merged runs form one experiment. With SLURM:

  # plan.sh, submitted with: sbatch --array=1-16 plan.sh
  sudokulab --db shard-$SLURM_ARRAY_TASK_ID.db init --from lab.db
  sudokulab --db shard-$SLURM_ARRAY_TASK_ID.db run --collection hard --config reseda-sec5.2-brute-force \
      --runs 100 --experiment hard-reseda --shard $SLURM_ARRAY_TASK_ID/16

  # merge.sh, submitted with: sbatch --dependency=afterok:<array job id> merge.sh
  sudokulab --db lab.db merge shard-*.db`,
		Example: `  sudokulab --db lab.db merge shard-1.db shard-2.db shard-3.db
  sudokulab --db postgres://lab@dbhost/lab merge results/*.db --fail-on-conflict
  sudokulab --db lab.db -O csv merge other-lab.db > merge-report.csv
  sudokulab --db lab.db merge --skip-invalid someone-elses-lab.db`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMerge(cmd.Context(), cmd, o, args)
		},
	}
	cmd.Flags().BoolVar(&o.failOnConflict, "fail-on-conflict", false, "exit with status 4 when a source conflicts with the destination")
	cmd.Flags().BoolVar(&o.skipInvalid, "skip-invalid", false, "merge a source that holds invalid rows without them (each is listed) instead of refusing it")
	cmd.Flags().IntVar(&o.batch, "batch", 500, "source rows (runs with their trajectories) per destination transaction, at most 2000")
	return cmd
}

func runMerge(ctx context.Context, cmd *cobra.Command, o *mergeOptions, sources []string) error {
	if o.batch < 1 {
		return sudokulab.Errorf(sudokulab.EINVALID, "--batch %d: want at least 1", o.batch)
	}
	if err := db.CheckMergeSources(o.dbPath, sources); err != nil {
		return err
	}
	dst, err := o.open(ctx)
	if err != nil {
		return err
	}
	defer dst.Close()
	stderr := cmd.ErrOrStderr()
	var (
		reps      []db.MergeReport
		conflicts int64
		mergeErr  error
	)
	for i, target := range sources {
		rep, err := mergeOne(ctx, stderr, dst, target, o)
		reps = append(reps, rep)
		conflicts += rep.ConflictCount()
		if err != nil {
			if errors.Is(err, context.Canceled) {
				fmt.Fprintf(stderr, "interrupted: what was merged stays; run the same command again to merge the rest\n")
			} else if len(sources) > 1 {
				// Each source is merged in transactions of its own: say
				// what the failure leaves of the others.
				fmt.Fprintf(stderr, "merge stopped at source %d of %d, %s: the %d before it stay merged, the %d after it were not merged; merging a source again changes nothing, so give merge the sources left\n",
					i+1, len(sources), rep.Source, i, len(sources)-i-1)
			}
			mergeErr = err
			break
		}
	}
	// The report of what was done, also when a source failed.
	t := db.MergeTable(reps)
	if err := writeRows(cmd.OutOrStdout(), o.format, t.Columns, t.Rows); err != nil {
		return errors.Join(mergeErr, err)
	}
	if mergeErr != nil {
		return mergeErr
	}
	if conflicts > 0 {
		fmt.Fprintf(stderr, "%d conflicts: %s kept its own values (listed above)\n", conflicts, dst.Path())
		if o.failOnConflict {
			return sudokulab.Errorf(sudokulab.ECONFLICT, "%d conflicts between the sources and %s", conflicts, dst.Path())
		}
	}
	return nil
}

// mergeOne merges the database target into dst, telling stderr what it
// does, the conflicts, the invalid rows left out and the notes.
func mergeOne(ctx context.Context, stderr io.Writer, dst *db.DB, target string, o *mergeOptions) (db.MergeReport, error) {
	src, err := db.OpenOptions(ctx, target, db.Options{ReadOnly: true})
	if err != nil {
		return db.MergeReport{Source: db.Redact(target)}, fmt.Errorf("merge source: %w", openError(target, err))
	}
	defer src.Close()
	start, last := time.Now(), time.Now()
	fmt.Fprintf(stderr, "merging %s into %s\n", src.Path(), dst.Path())
	rep, err := db.Merge(ctx, dst, src, db.MergeOptions{
		Batch:        o.batch,
		SameSettings: o.registry.SameSettings,
		Solvers:      o.registry,
		SkipInvalid:  o.skipInvalid,
		Progress: func(kind string, done int64) {
			if time.Since(last) >= 5*time.Second {
				last = time.Now()
				fmt.Fprintf(stderr, "  %s: %d read\n", kind, done)
			}
		},
	})
	show.MergeNotes(stderr, rep, o.skipInvalid)
	if sudokulab.ErrorCode(err) == sudokulab.EINVALID && len(rep.Invalid) > 0 && !rep.Unreadable {
		err = fmt.Errorf("%w (--skip-invalid merges the other rows)", err)
	}
	if err == nil {
		r := rep.Count(db.MergeRuns)
		fmt.Fprintf(stderr, "merged %s in %v: runs %d added, %d already there, %d conflicts, %d skipped\n",
			src.Path(), time.Since(start).Round(time.Millisecond), r.Added, r.Existing, r.Conflicts, r.Skipped)
	}
	return rep, err
}
