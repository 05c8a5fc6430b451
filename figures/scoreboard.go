package figures

import (
	"context"
	"fmt"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/plots"
	"sudokulab/queries"
)

// ScoreboardSpec chooses the cells of the reproduction scoreboard.
type ScoreboardSpec struct {
	// Readings is which configurations may stand for a cell: paper,
	// readings or all.
	Readings string
	// Paper keeps the cells of one paper; "" keeps all.
	Paper string
	// Experiment keeps the runs of one experiment; "" keeps all.
	Experiment string
}

// Scoreboard draws the rows of the shipped query reproduction-scoreboard
// run with s: ours against each paper's published value, one point per
// cell.
func Scoreboard(ctx context.Context, d *db.DB, s ScoreboardSpec, opts plots.Options) (*plots.Figure, error) {
	qs, err := queries.All()
	if err != nil {
		return nil, err
	}
	q, ok := queries.Find(qs, "reproduction-scoreboard")
	if !ok {
		return nil, fmt.Errorf("plot scoreboard: the query reproduction-scoreboard is not shipped")
	}
	values := map[string]string{"readings": s.Readings}
	if s.Paper != "" {
		values["paper"] = s.Paper
	}
	if s.Experiment != "" {
		values["experiment"] = s.Experiment
	}
	sql, args, err := q.Bind(values)
	if err != nil {
		return nil, sudokulab.WrapError(sudokulab.EINVALID, err, "plot scoreboard")
	}
	t, err := d.ReadQuery(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	cells, err := plots.ScoreCellsFromTable(t.Columns, t.Rows)
	if err != nil {
		return nil, err
	}
	return plots.Scoreboard(cells, opts)
}
