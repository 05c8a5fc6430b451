package main

import (
	"context"

	"sudokulab/db"
	"sudokulab/figures"
	"sudokulab/plots"
)

// scoreboard draws the rows of the canned query reproduction-scoreboard,
// run with the --paper, --readings and --experiment of o.
func (o *plotOptions) scoreboard(ctx context.Context, d *db.DB) (*plots.Figure, error) {
	return figures.Scoreboard(ctx, d, figures.ScoreboardSpec{Readings: o.readings, Paper: o.paper, Experiment: o.experiment}, o.plotOpts())
}
