package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/db"
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
		Short: "Show an experiment's runs per configuration",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := opts.open(cmd.Context())
			if err != nil {
				return err
			}
			defer d.Close()
			t, err := db.ExperimentDetail(cmd.Context(), d, args[0])
			if err != nil {
				return err
			}
			if len(t.Rows) == 0 {
				var n int
				if err := d.GetContext(cmd.Context(), &n, d.Rebind("SELECT count(*) FROM experiments WHERE name = ?"), args[0]); err != nil {
					return err
				}
				if n == 0 {
					return sudokulab.Errorf(sudokulab.ENOTFOUND, "no experiment called %q (see sudokulab experiments list)", args[0])
				}
			}
			if opts.format == "table" {
				fmt.Fprintf(cmd.OutOrStdout(), "experiment %s\n", args[0])
			}
			return writeRows(cmd.OutOrStdout(), opts.format, t.Columns, t.Rows)
		},
	}
	return groupCmd("experiments", "List and show experiments", list, show)
}
