package main

import (
	"github.com/spf13/cobra"

	"sudokulab/db"
	"sudokulab/internal/show"
)

func newExperimentsCmd(opts *options) *cobra.Command {
	list := &cobra.Command{
		Use:   "list",
		Short: "List experiments with their configurations, puzzles and success so far",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return opts.printReport(cmd, db.ExperimentTable)
		},
	}
	show := &cobra.Command{
		Use:   "show NAME",
		Short: "Show an experiment's work and runs per configuration, and who worked on it",
		Long: `show prints, per configuration, the experiment's planned runs that are
pending, running (claimed under a live lease), lapsed (their worker died;
another will take them), abandoned (their workers died three times) and
done, with what the runs say; then the hosts that recorded its runs and the
workers holding its runs now.`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := opts.openRead(cmd.Context())
			if err != nil {
				return err
			}
			defer d.Close()
			t, err := db.ExperimentDetail(cmd.Context(), d, args[0])
			if err != nil {
				return err
			}
			if len(t.Rows) == 0 {
				// Nothing planned: say so unless there is no such experiment.
				if _, err := db.ExperimentID(cmd.Context(), d, args[0]); err != nil {
					return err
				}
			}
			hosts, err := db.ExperimentHosts(cmd.Context(), d, args[0])
			if err != nil {
				return err
			}
			return show.Experiment(cmd.OutOrStdout(), opts.format, args[0], t, hosts)
		},
	}
	return groupCmd("experiments", "List and show experiments", list, show)
}
