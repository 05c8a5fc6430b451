package db

import "context"

// HasTrajectories says whether a run sel selects has trajectory points:
// whether the pictures drawn from them (convergence, ERT) have anything
// to draw. It stops at the first such run.
func (d *DB) HasTrajectories(ctx context.Context, sel RunSelection) (bool, error) {
	cond, args := sel.Condition()
	t, err := d.ReadQuery(ctx, `
		SELECT 1 FROM run_results r
		WHERE `+cond+`
		  AND EXISTS (SELECT 1 FROM trajectory_points t WHERE t.run_id = r.id)
		LIMIT 1`, args...)
	if err != nil {
		return false, dbError(err, "look for trajectory points")
	}
	return len(t.Rows) > 0, nil
}
