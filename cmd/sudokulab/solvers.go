package main

import (
	"github.com/spf13/cobra"

	"sudokulab/internal/show"
)

func newSolversCmd(opts *options) *cobra.Command {
	return &cobra.Command{
		Use:   "solvers",
		Short: "List the solvers with their parameters, defaults and presets",
		Long: `solvers lists every registered solver, sorted by name, with each parameter's
type, default (the paper's setting), allowed values, meaning and the paper
section it comes from, and the presets that reproduce the paper's settings.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return show.Solvers(cmd.OutOrStdout(), opts.format, opts.registry.All())
		},
	}
}
