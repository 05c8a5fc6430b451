package show

import (
	"fmt"
	"io"
	"maps"
	"strings"

	"sudokulab"
	"sudokulab/internal/tabular"
	"sudokulab/runner"
)

// Config writes a configuration as configs show prints it: its
// parameters beside the solver's defaults (a table; CSV is that table),
// after its name, solver, paper and hash (text) or with them (JSON).
func Config(w io.Writer, format string, c runner.Config) error {
	t := c.ParamTable()
	cols, rows := t.Columns, t.Rows
	switch format {
	case "csv":
		return tabular.Write(w, format, cols, rows)
	case "json":
		params := make([]object, len(c.Info.Params))
		for i, p := range c.Info.Params {
			params[i] = object{{"parameter", p.Name}, {"value", c.Params[p.Name]}, {"default", p.Default},
				{"range", p.Range()}, {"section", p.Section}, {"doc", p.Doc}}
		}
		return tabular.WriteJSON(w, object{{"name", c.Name}, {"solver", c.Solver}, {"preset", c.Preset},
			{"description", c.Description}, {"paper", c.Info.Paper}, {"params", c.Params.Canonical()},
			{"params_hash", c.ParamsHash}, {"parameters", params}})
	}
	kind := "configuration"
	if c.Preset {
		kind = "preset"
	}
	fmt.Fprintf(w, "%s %s: solver %s (%s)\n", kind, c.Name, c.Solver, c.Info.Paper)
	if c.Description != "" {
		fmt.Fprintln(w, c.Description)
	}
	fmt.Fprintf(w, "parameters %s, hash %s\n", c.Config.Params, c.ParamsHash[:16])
	return tabular.Write(w, format, cols, rows)
}

// Solvers writes the solvers as the solvers command prints them: as
// text, each with its paper, counting, parameters and presets; as CSV, a
// row per parameter; as JSON, an object per solver.
func Solvers(w io.Writer, format string, all []sudokulab.SolverInfo) error {
	if format == "json" {
		return tabular.WriteJSON(w, solversJSON(all))
	}
	if format != "table" {
		var rows [][]any
		for _, s := range all {
			if len(s.Params) == 0 {
				rows = append(rows, []any{s.Name, nil, nil, nil, nil, nil, nil})
			}
			for _, p := range s.Params {
				rows = append(rows, []any{s.Name, p.Name, string(p.Kind), fmt.Sprint(p.Default), p.Range(), p.Doc, p.Section})
			}
		}
		return tabular.Write(w, format, []string{"solver", "parameter", "type", "default", "range", "doc", "section"}, rows)
	}
	for i, s := range all {
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
			if err := tabular.Write(w, "table", []string{"  parameter", "type", "default", "range", "section", "doc"}, rows); err != nil {
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
}

// solversJSON describes every solver as an object: its name, summary,
// paper and counting, its parameters with typed defaults, and its presets
// with their settings.
func solversJSON(all []sudokulab.SolverInfo) []object {
	var out []object
	for _, s := range all {
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
