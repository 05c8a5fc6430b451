package main

import (
	"fmt"
	"maps"
	"strings"

	"github.com/spf13/cobra"
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
			w := cmd.OutOrStdout()
			if opts.format == "json" {
				return writeJSON(w, solversJSON(opts))
			}
			if opts.format != "table" {
				var rows [][]any
				for _, s := range opts.registry.All() {
					if len(s.Params) == 0 {
						rows = append(rows, []any{s.Name, nil, nil, nil, nil, nil, nil})
					}
					for _, p := range s.Params {
						rows = append(rows, []any{s.Name, p.Name, string(p.Kind), fmt.Sprint(p.Default), p.Range(), p.Doc, p.Section})
					}
				}
				return writeRows(w, opts.format, []string{"solver", "parameter", "type", "default", "range", "doc", "section"}, rows)
			}
			for i, s := range opts.registry.All() {
				if i > 0 {
					fmt.Fprintln(w)
				}
				fmt.Fprintf(w, "%s: %s\n  paper: %s\n  counting: %s\n", s.Name, s.Summary, s.Paper, s.Counting)
				if len(s.Params) == 0 {
					fmt.Fprintln(w, "  parameters: none")
				} else {
					rows := make([][]any, len(s.Params))
					for j, p := range s.Params {
						rows[j] = []any{"  " + p.Name, string(p.Kind), fmt.Sprint(p.Default), p.Range(), p.Section, p.Doc}
					}
					if err := writeRows(w, "table", []string{"  parameter", "type", "default", "range", "section", "doc"}, rows); err != nil {
						return err
					}
				}
				for _, p := range s.Presets {
					fmt.Fprintf(w, "  preset %s: %s", p.Name, p.Description)
					if len(p.Set) > 0 {
						fmt.Fprintf(w, " (--set %s)", strings.Join(p.Sets(), " --set "))
					}
					fmt.Fprintln(w)
				}
			}
			return nil
		},
	}
}

// solversJSON describes every solver as an object: its name, summary,
// paper and counting, its parameters with typed defaults, and its presets
// with their settings.
func solversJSON(opts *options) []object {
	var out []object
	for _, s := range opts.registry.All() {
		params := make([]object, len(s.Params))
		for i, p := range s.Params {
			params[i] = object{{"name", p.Name}, {"type", string(p.Kind)}, {"default", p.Default}, {"range", p.Range()},
				{"section", p.Section}, {"doc", p.Doc}}
		}
		presets := make([]object, len(s.Presets))
		for i, p := range s.Presets {
			set := map[string]string{}
			maps.Copy(set, p.Set)
			presets[i] = object{{"name", p.Name}, {"description", p.Description}, {"set", set}}
		}
		out = append(out, object{{"name", s.Name}, {"summary", s.Summary}, {"paper", s.Paper}, {"counting", s.Counting},
			{"parameters", params}, {"presets", presets}})
	}
	return out
}
