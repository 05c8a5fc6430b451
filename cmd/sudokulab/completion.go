package main

import (
	"context"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"sudokulab/db"
	"sudokulab/importers"
	"sudokulab/queries"
	"sudokulab/raters"
)

// Shell completion (sudokulab completion bash|zsh|fish|powershell) offers
// the names a flag or argument takes: configurations, collections and
// experiments read from the database of --db (opened read-only; nothing
// when it cannot be read), and the solvers, raters, queries, file formats
// and output formats this program knows. A name is never completed as a
// file name.

// completer returns the completions of one kind of name.
type completer func(ctx context.Context) []string

// registerCompletions registers the completion of every flag named
// config, collection, solver, rater, experiment and output-format, of the
// file --format of import, export, rate and check, and of the arguments of
// the commands that take a configuration, collection, experiment or query
// name, on root and every command below it.
func registerCompletions(root *cobra.Command, o *options) {
	configs := func(ctx context.Context) []string {
		return append(o.dbNames(ctx, "configs"), o.registry.PresetNames()...)
	}
	collections := func(ctx context.Context) []string { return o.dbNames(ctx, "collections") }
	experiments := func(ctx context.Context) []string { return o.dbNames(ctx, "experiments") }
	solverNames := func(context.Context) []string { return o.registry.Names() }
	raterNames := func(context.Context) []string { return append(raters.Default().Names(), "all") }
	queryNames := func(context.Context) []string {
		names, _ := queries.Names() // unreadable embedded queries complete nothing
		return names
	}
	fileFormats := func(context.Context) []string { return importers.Default().Names() }
	flags := map[string]completer{
		"config":        configs,
		"collection":    collections,
		"experiment":    experiments,
		"solver":        solverNames,
		"rater":         raterNames,
		"output-format": func(context.Context) []string { return outputFormats },
	}
	args := map[string]completer{
		"sudokulab configs show":     configs,
		"sudokulab collections show": collections,
		"sudokulab collections rm":   collections,
		"sudokulab experiments show": experiments,
		"sudokulab query":            func(ctx context.Context) []string { return append(queryNames(ctx), "list", "show") },
		"sudokulab query show":       queryNames,
	}
	withFileFormat := []string{"sudokulab import", "sudokulab export", "sudokulab rate", "sudokulab check"}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		register := func(f *pflag.Flag) {
			if f.Hidden {
				return
			}
			complete, ok := flags[f.Name]
			if f.Name == "format" && slices.Contains(withFileFormat, c.CommandPath()) {
				complete, ok = fileFormats, true
			}
			if ok {
				// An error means a completion is registered already
				// (by the command's own file): that one stays.
				_ = c.RegisterFlagCompletionFunc(f.Name, completion(complete))
			}
		}
		c.LocalNonPersistentFlags().VisitAll(register)
		c.PersistentFlags().VisitAll(register)
		if complete, ok := args[c.CommandPath()]; ok && c.ValidArgsFunction == nil {
			c.ValidArgsFunction = func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
				if len(args) > 0 {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				return completion(complete)(cmd, args, toComplete)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// completion turns a completer into a cobra completion function: the
// names starting with what is typed, sorted, once each, never file names.
func completion(complete completer) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		ctx := cmd.Context()
		if ctx == nil {
			ctx = context.Background()
		}
		var out []string
		for _, n := range complete(ctx) {
			if strings.HasPrefix(n, toComplete) {
				out = append(out, n)
			}
		}
		slices.Sort(out)
		return slices.Compact(out), cobra.ShellCompDirectiveNoFileComp
	}
}

// dbNames returns the names of the rows of table in the database of --db,
// opened read-only; none when it cannot be read.
func (o *options) dbNames(ctx context.Context, table string) []string {
	d, err := o.openRead(ctx)
	if err != nil {
		return nil
	}
	defer d.Close()
	names, err := db.Names(ctx, d, table)
	if err != nil {
		return nil
	}
	return names
}
