package main

import (
	"context"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/plots"
)

// scoreboard draws the rows of the canned query reproduction-scoreboard,
// run with the --paper, --readings and --experiment of o.
func (o *plotOptions) scoreboard(ctx context.Context, d *db.DB) (*plots.Figure, error) {
	q, err := findQuery("reproduction-scoreboard")
	if err != nil {
		return nil, err
	}
	values := map[string]string{"readings": o.readings}
	if o.paper != "" {
		values["paper"] = o.paper
	}
	if o.experiment != "" {
		values["experiment"] = o.experiment
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
	return plots.Scoreboard(cells, o.plotOpts())
}
