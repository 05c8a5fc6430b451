package main

import (
	"context"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/show"
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
	return show.Run(cmd.OutOrStdout(), o.format, rd)
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
