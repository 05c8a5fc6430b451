package web

import (
	"cmp"
	"net/http"
	"slices"

	"github.com/jmoiron/sqlx"

	"sudokulab/db"
)

// table is a db.Table as pages show it and JSON carries it.
type table struct {
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
	// Links maps a column to the path its values link to (the value
	// appended): "puzzle_id" to "/puzzles/".
	Links map[string]string `json:"-"`
}

func tableOf(t db.Table) table {
	if t.Rows == nil {
		t.Rows = [][]any{}
	}
	return table{Columns: t.Columns, Rows: t.Rows}
}

// column returns the index of the named column, or -1.
func (t table) column(name string) int { return slices.Index(t.Columns, name) }

// homeData is the home page: what the lab holds and what happened last.
type homeData struct {
	Lab           db.LabSize `json:"lab"`
	Database      string     `json:"database"`
	Engine        string     `json:"engine"`
	SchemaVersion int64      `json:"schema_version"`
	CodeVersion   string     `json:"code_version"`
	RecentImports table      `json:"recent_imports"`
	Experiments   table      `json:"recent_experiments"`
}

// recentRows is how many imports and experiments the home page lists.
const recentRows = 10

func (s *Server) home(r *http.Request) (view, error) {
	ctx := r.Context()
	d := homeData{Database: s.db.Path(), Engine: s.db.Engine(), CodeVersion: s.o.Version}
	err := s.db.Snapshot(ctx, func(tx *sqlx.Tx) error {
		var err error
		d.Lab, err = db.CountLab(ctx, tx)
		return err
	})
	if err != nil {
		return view{}, err
	}
	if d.SchemaVersion, err = s.db.Version(ctx); err != nil {
		return view{}, err
	}
	imports, err := db.ImportTable(ctx, s.db, "")
	if err != nil {
		return view{}, err
	}
	d.RecentImports = tableOf(imports)
	d.RecentImports.Rows = d.RecentImports.Rows[:min(recentRows, len(d.RecentImports.Rows))]
	exps, err := db.ExperimentTable(ctx, s.db)
	if err != nil {
		return view{}, err
	}
	d.Experiments = tableOf(exps)
	if last := d.Experiments.column("last_run"); last >= 0 {
		// The newest first; experiments without runs last.
		slices.SortStableFunc(d.Experiments.Rows, func(a, b []any) int {
			return cmp.Compare(cellText(b[last]), cellText(a[last]))
		})
	}
	d.Experiments.Rows = d.Experiments.Rows[:min(recentRows, len(d.Experiments.Rows))]
	return view{Template: "home", Title: "sudokulab", Data: d}, nil
}
