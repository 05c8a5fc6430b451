package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/shell"
	"sudokulab/internal/show"
	"sudokulab/runner"
)

func newConfigsCmd(opts *options) *cobra.Command {
	return groupCmd("configs", "Add, list and show solver configurations",
		newConfigsAddCmd(opts), newConfigsListCmd(opts), newConfigsShowCmd(opts))
}

type configsAddOptions struct {
	*options
	solver, description string
	sets                []string
}

func newConfigsAddCmd(opts *options) *cobra.Command {
	o := &configsAddOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "add NAME",
		Short: "Name a solver with parameter settings",
		Long: `add stores a configuration: a solver with every parameter resolved (the
--set values over the solver's defaults). A configuration is identified by
its solver and parameters: adding the same settings again, under any name,
reuses the stored configuration.`,
		Example: `  sudokulab configs add my-exact --solver exact`,
		Args:    exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runConfigsAdd(cmd.Context(), cmd, o, args[0])
		},
	}
	cmd.Flags().StringVar(&o.solver, "solver", "", "solver name (see sudokulab solvers)")
	cmd.Flags().StringArrayVar(&o.sets, "set", nil, "parameter name=value (repeatable)")
	cmd.Flags().StringVar(&o.description, "description", "", "what the configuration is for")
	return cmd
}

func runConfigsAdd(ctx context.Context, cmd *cobra.Command, o *configsAddOptions, name string) error {
	if o.solver == "" {
		return sudokulab.Errorf(sudokulab.EINVALID, "configs add needs --solver")
	}
	sets, err := parseSets(o.sets)
	if err != nil {
		return err
	}
	d, err := o.open(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	c, reused, err := runner.EnsureConfig(ctx, d, o.registry, name, o.solver, sets, o.description, false)
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	return writeRecord(w, o.format, func() error {
		switch {
		case reused && c.Name == name:
			fmt.Fprintf(w, "configuration %s exists with these settings\n", name)
		case reused:
			fmt.Fprintf(w, "these settings are stored as configuration %s; use that name\n", c.Name)
		default:
			fmt.Fprintf(w, "added configuration %s: %s %s\n", c.Name, c.Solver, c.Params.Canonical())
		}
		return nil
	}, object{{"name", c.Name}, {"solver", c.Solver}, {"params", c.Params.Canonical()}, {"added", !reused}})
}

func newConfigsListCmd(opts *options) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List configurations with their run counts",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return opts.printReport(cmd, db.ConfigTable)
		},
	}
}

func newConfigsShowCmd(opts *options) *cobra.Command {
	return &cobra.Command{
		Use:   "show NAME",
		Short: "Show a configuration's parameters beside the solver's defaults",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			d, err := opts.openRead(ctx)
			if err != nil {
				return err
			}
			defer d.Close()
			c, err := runner.LoadConfig(ctx, d, opts.registry, args[0])
			if _, preset := opts.registry.Preset(args[0]); preset && sudokulab.ErrorCode(err) == sudokulab.ENOTFOUND {
				// Read-only commands store nothing, presets included.
				return sudokulab.WrapError(sudokulab.ENOTFOUND, err,
					"%s is a preset this database does not hold yet: sudokulab --db %s migrate up (or any run) stores it", args[0], shell.Quote(d.Path()))
			}
			if err != nil {
				return err
			}
			return show.Config(cmd.OutOrStdout(), opts.format, c)
		},
	}
}
