package web

import (
	"cmp"
	"context"
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

// homeCounts is what the home page counts over whole tables: the lab's
// sizes and the experiments with their runs, kept while the lab is
// unchanged (keeper).
type homeCounts struct {
	lab         db.LabSize
	experiments db.Table
}

// homeCounts returns the home page's counts, kept.
func (s *Server) homeCounts(ctx context.Context) (homeCounts, error) {
	c, _, err := keptValueOf(ctx, s.kept, "home", keep{}, func(ctx context.Context) (homeCounts, error) {
		var c homeCounts
		err := s.db.Snapshot(ctx, func(tx *sqlx.Tx) error {
			var err error
			if c.lab, err = db.CountLab(ctx, tx); err == nil {
				c.experiments, err = db.ExperimentTable(ctx, tx)
			}
			return err
		})
		return c, err
	})
	return c, err
}

func (s *Server) home(r *http.Request) (view, error) {
	ctx := r.Context()
	d := homeData{Database: s.db.Path(), Engine: s.db.Engine(), CodeVersion: s.o.Version}
	counts, err := s.homeCounts(ctx)
	if err != nil {
		return view{}, err
	}
	d.Lab = counts.lab
	if d.SchemaVersion, err = s.db.Version(ctx); err != nil {
		return view{}, err
	}
	imports, err := db.ImportTable(ctx, s.db, "")
	if err != nil {
		return view{}, err
	}
	d.RecentImports = tableOf(imports)
	d.RecentImports.Rows = d.RecentImports.Rows[:min(recentRows, len(d.RecentImports.Rows))]
	d.Experiments = tableOf(counts.experiments)
	d.Experiments.Rows = slices.Clone(d.Experiments.Rows)
	if last := d.Experiments.column("last_run"); last >= 0 {
		// The newest first; experiments without runs last.
		slices.SortStableFunc(d.Experiments.Rows, func(a, b []any) int {
			return cmp.Compare(cellText(b[last]), cellText(a[last]))
		})
	}
	d.Experiments.Rows = d.Experiments.Rows[:min(recentRows, len(d.Experiments.Rows))]
	return view{Template: "home", Title: "sudokulab", Data: d}, nil
}
