package main

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jmoiron/sqlx"
	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/db"
)

type runsListOptions struct {
	*options
	where string
	limit int
}

func newRunsCmd(opts *options) *cobra.Command {
	lo := &runsListOptions{options: opts}
	list := &cobra.Command{
		Use:   "list",
		Short: "List runs, newest first, filtered by a SQL predicate over run_results",
		Example: `  sudokulab runs list --where "config = 'exact' AND status <> 'solved'"
  sudokulab runs list --where "experiment = 'try'" --limit 0`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return opts.printReport(cmd, func(ctx context.Context, x sqlx.ExtContext) (db.Table, error) {
				return db.RunTable(ctx, x, lo.where, lo.limit)
			})
		},
	}
	list.Flags().StringVar(&lo.where, "where", "", "SQL predicate over the view run_results")
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
	r, err := db.GetRun(ctx, d, id)
	if err != nil {
		return err
	}
	p, err := db.GetPuzzle(ctx, d, r.PuzzleID)
	if err != nil {
		return err
	}
	var config string
	if err := d.GetContext(ctx, &config, d.Rebind("SELECT name FROM configs WHERE id = ?"), r.ConfigID); err != nil {
		return err
	}
	points, err := db.RunTrajectory(ctx, d, id)
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	if o.format == "table" {
		budget := "none"
		if r.MaxEvaluations > 0 || r.MaxGenerations > 0 || r.TimeoutMS > 0 {
			budget = fmt.Sprintf("%d evaluations, %d generations, %d ms (0: no limit)", r.MaxEvaluations, r.MaxGenerations, r.TimeoutMS)
		}
		fmt.Fprintf(w, "run %d: configuration %s on puzzle %d, seed %d, budget %s\n", r.ID, config, r.PuzzleID, r.Seed, budget)
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
	}
	rows := make([][]any, len(points))
	for i, pt := range points {
		var cur any
		if pt.CurrentCost != nil {
			cur = *pt.CurrentCost
		}
		rows[i] = []any{pt.Seq, pt.Generation, pt.Evaluations, pt.ElapsedSeconds, pt.BestCost, cur}
	}
	return writeRows(w, o.format, []string{"seq", "generation", "evaluations", "elapsed_seconds", "best_cost", "current_cost"}, rows)
}
