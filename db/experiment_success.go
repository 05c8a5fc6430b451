package db

import (
	"context"

	"github.com/jmoiron/sqlx"
)

// ConfigSuccess counts one configuration's finished runs in an
// experiment (solved, unsolved or out of time; canceled and failed runs
// are left out, as report leaves them out), the solved ones, and the
// puzzles it ran on.
type ConfigSuccess struct {
	Config  string `db:"config"`
	Solver  string `db:"solver"`
	Puzzles int    `db:"puzzles"`
	Runs    int    `db:"runs"`
	Solved  int    `db:"solved"`
}

// ExperimentSuccess counts the finished and solved runs of each
// configuration of the experiment called name (experiment_run_results),
// by configuration name: what the web page shows of an experiment too big
// to read run by run.
func ExperimentSuccess(ctx context.Context, x sqlx.ExtContext, name string) ([]ConfigSuccess, error) {
	var out []ConfigSuccess
	err := sqlx.SelectContext(ctx, x, &out, x.Rebind(`
		SELECT c.name AS config, c.solver AS solver, COUNT(DISTINCT r.puzzle_id) AS puzzles, COUNT(*) AS runs,
		       SUM(CASE WHEN r.status = 'solved' THEN 1 ELSE 0 END) AS solved
		FROM experiments e
		JOIN experiment_runs er ON er.experiment_id = e.id
		JOIN runs r ON r.id = er.run_id
		JOIN configs c ON c.id = r.config_id
		WHERE e.name = ? AND r.status IN ('solved', 'unsolved', 'timeout')
		GROUP BY c.name, c.solver
		ORDER BY c.name`), name)
	return out, dbError(err, "success of experiment "+name)
}
