package show

import (
	"fmt"
	"io"

	"sudokulab/db"
	"sudokulab/internal/tabular"
)

// Collection writes a collection as collections show prints it: as text,
// its name, size, date and description, its puzzles and the imports into
// it; as JSON, all of that; as CSV, its puzzles.
func Collection(w io.Writer, format string, v *db.CollectionView) error {
	c, t, imports := v.Collection, v.Members, v.Imports
	switch format {
	case "csv":
		return tabular.Write(w, format, t.Columns, t.Rows)
	case "json":
		return tabular.WriteJSON(w, object{{"name", c.Name}, {"puzzles", c.Puzzles}, {"created_at", c.CreatedAt},
			{"description", c.Description}, {"frozen", c.Frozen}, {"members", tabular.RowObjects(t.Columns, t.Rows)},
			{"imports", tabular.RowObjects(imports.Columns, imports.Rows)}})
	}
	frozen := ""
	if c.Frozen {
		frozen = " (frozen: imports do not add to it)"
	}
	fmt.Fprintf(w, "collection %s: %d puzzles, created %s%s\n", c.Name, c.Puzzles, c.CreatedAt.Format("2006-01-02 15:04:05"), frozen)
	if c.Description != "" {
		fmt.Fprintln(w, c.Description)
	}
	fmt.Fprintln(w)
	if err := tabular.Write(w, "table", t.Columns, t.Rows); err != nil {
		return err
	}
	if len(imports.Rows) > 0 {
		fmt.Fprintln(w, "\nimports:")
		return tabular.Write(w, "table", imports.Columns, imports.Rows)
	}
	return nil
}

// Experiment writes an experiment as experiments show prints it: as text,
// its work and runs per configuration (t) and its hosts and workers; as
// JSON, both; as CSV, the per-configuration table alone (one table per
// output).
func Experiment(w io.Writer, format, name string, t, hosts db.Table) error {
	switch format {
	case "csv":
		return tabular.Write(w, format, t.Columns, t.Rows)
	case "json":
		return tabular.WriteJSON(w, object{{"name", name}, {"configurations", tabular.RowObjects(t.Columns, t.Rows)},
			{"hosts", tabular.RowObjects(hosts.Columns, hosts.Rows)}})
	}
	fmt.Fprintf(w, "experiment %s\n", name)
	if err := tabular.Write(w, format, t.Columns, t.Rows); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nhosts and workers")
	return tabular.Write(w, format, hosts.Columns, hosts.Rows)
}
