package runner

import (
	"fmt"

	"sudokulab/db"
)

// ParamTable is c's parameters as a table, one row per parameter of its
// solver in the solver's order: parameter, the configuration's value, the
// solver's default, the allowed range, the section defining it and its doc.
func (c Config) ParamTable() db.Table {
	rows := make([][]any, len(c.Info.Params))
	for i, p := range c.Info.Params {
		rows[i] = []any{p.Name, fmt.Sprint(c.Params[p.Name]), fmt.Sprint(p.Default), p.Range(), p.Section, p.Doc}
	}
	return db.Table{Columns: []string{"parameter", "value", "default", "range", "section", "doc"}, Rows: rows}
}
