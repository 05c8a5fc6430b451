package main

import (
	"context"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/db"
)

type runsListOptions struct {
	*options
	where, runsWhere, experiment, config string
	limit                                int
}

func newRunsCmd(opts *options) *cobra.Command {
	lo := &runsListOptions{options: opts}
	list := &cobra.Command{
		Use:   "list",
		Short: "List runs, newest first, filtered by puzzle, experiment, configuration or a SQL predicate over run_results",
		Long: `list prints the recorded runs, newest first: those of --experiment, of
--config, on the puzzles matching --where (a SQL predicate over the view
puzzle_catalog, as everywhere), and matching --runs-where (a SQL predicate
over the view run_results, one row per run; see docs/schema.md).`,
		Example: `  sudokulab runs list --experiment e1 --limit 0
  sudokulab runs list --config exact --runs-where "status <> 'solved'"
  sudokulab runs list --where "collection = 'sato-inoue-2010'" --runs-where "wall_seconds > 1"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			sel, err := lo.selection()
			if err != nil {
				return err
			}
			return opts.printReport(cmd, db.RunList(sel, lo.limit))
		},
	}
	list.Flags().StringVar(&lo.where, "where", "", "only runs on puzzles matching this "+whereHelp)
	list.Flags().StringVar(&lo.runsWhere, "runs-where", "", "SQL predicate over the view run_results (one row per run; docs/schema.md)")
	list.Flags().StringVar(&lo.experiment, "experiment", "", "only the runs of this experiment")
	list.Flags().StringVar(&lo.config, "config", "", "only the runs of this configuration")
	list.Flags().IntVar(&lo.limit, "limit", 50, "at most this many runs (0: all)")
	show := &cobra.Command{
		Use:   "show ID",
		Short: "Show a run: its puzzle, final grid and trajectory",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := strconv.ParseInt(args[0], 10, 64)
			if err != nil {
				return sudokulab.Errorf(sudokulab.EINVALID, "run id %q is not a number", args[0])
			}
			return runRunsShow(cmd.Context(), cmd, opts, id)
		},
	}
	return groupCmd("runs", "List and show recorded runs", list, show)
}

func runRunsShow(ctx context.Context, cmd *cobra.Command, o *options, id int64) error {
	d, err := o.openRead(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	rd, err := db.GetRunDetail(ctx, d, id)
	if err != nil {
		return err
	}
	r, p, config, points := rd.Run, rd.Puzzle, rd.Config.Name, rd.Trajectory
	w := cmd.OutOrStdout()
	t := db.TrajectoryTable(points)
	tcols, rows := t.Columns, t.Rows
	switch o.format {
	case "csv":
		// The trajectory, one row per point: the table a plot reads.
		return writeRows(w, o.format, tcols, rows)
	case "json":
		var final any
		if len(r.FinalGrid.Cells) > 0 {
			final = r.FinalGrid.String()
		}
		return writeJSON(w, object{
			{"id", r.ID}, {"config", config}, {"config_id", r.ConfigID}, {"experiment_id", nullID(r.ExperimentID)},
			{"puzzle_id", r.PuzzleID}, {"puzzle", p.Givens.String()}, {"seed", r.Seed},
			{"max_evaluations", r.MaxEvaluations}, {"max_generations", r.MaxGenerations}, {"timeout_ms", r.TimeoutMS},
			{"status", r.Status}, {"best_cost", r.BestCost}, {"generations", r.Generations}, {"evaluations", r.Evaluations},
			{"restarts", r.Restarts}, {"wall_seconds", r.WallSeconds}, {"cpu_seconds", r.CPUSeconds},
			{"prefilter_revisions", r.PrefilterRevisions}, {"nodes", r.Nodes}, {"guesses", r.Guesses},
			{"error", nullString(r.Error)}, {"final_grid", final}, {"code_version", r.CodeVersion}, {"host", r.Host},
			{"started_at", r.StartedAt}, {"finished_at", r.FinishedAt},
			{"trajectory", rowObjects(tcols, rows)},
		})
	}
	fmt.Fprintf(w, "run %d: configuration %s on puzzle %d, seed %d, budget %s\n", r.ID, config, r.PuzzleID, r.Seed, r.BudgetText())
	fmt.Fprintf(w, "status %s", r.Status)
	if r.BestCost != nil {
		fmt.Fprintf(w, ", best cost %d", *r.BestCost)
	}
	fmt.Fprintf(w, ", %d generations, %d evaluations, %d restarts", r.Generations, r.Evaluations, r.Restarts)
	if r.WallSeconds != nil {
		fmt.Fprintf(w, ", %.3fs", *r.WallSeconds)
	}
	fmt.Fprintln(w)
	if r.Error != "" {
		fmt.Fprintf(w, "error: %s\n", r.Error)
	}
	fmt.Fprintf(w, "code %s on %s, %s to %s\n", r.CodeVersion, r.Host, db.FormatTime(r.StartedAt), db.FormatTime(r.FinishedAt))
	fmt.Fprintf(w, "puzzle:\n%s", p.Givens.Pretty())
	if len(r.FinalGrid.Cells) > 0 {
		fmt.Fprintf(w, "final grid:\n%s", r.FinalGrid.Pretty())
	}
	fmt.Fprintf(w, "trajectory (%d points):\n", len(points))
	return writeRows(w, o.format, tcols, rows)
}

// nullID is id, or nil (NULL) when it is 0.
func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// selection returns the runs the flags ask for, its predicates checked
// (an error names the flag).
func (o *runsListOptions) selection() (db.RunSelection, error) {
	for _, p := range []struct{ flag, pred string }{{"--runs-where", o.runsWhere}, {"--where", o.where}} {
		if err := db.CheckPredicate(p.pred); err != nil {
			return db.RunSelection{}, fmt.Errorf("%s: %w", p.flag, err)
		}
	}
	sel := db.RunSelection{Experiment: o.experiment, Where: o.where, RunsWhere: o.runsWhere}
	if o.config != "" {
		sel.Configs = []string{o.config}
	}
	return sel, nil
}
