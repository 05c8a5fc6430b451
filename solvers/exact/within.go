package exact

import (
	"context"
	"errors"
	"time"

	"sudokulab"
)

// SolveWithin is Solve stopped after budget (no limit when budget is 0 or
// less). When the budget runs out before ctx ends, the count is
// undetermined: SolveWithin returns the Result found so far, undetermined
// true and a nil error. The end of ctx itself is an error, as in Solve.
func SolveWithin(ctx context.Context, puzzle sudokulab.Grid, limit int, budget time.Duration) (res Result, undetermined bool, err error) {
	sctx := ctx
	if budget > 0 {
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(ctx, budget)
		defer cancel()
	}
	res, err = Solve(sctx, puzzle, limit)
	if err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		return res, true, nil
	}
	return res, false, err
}
