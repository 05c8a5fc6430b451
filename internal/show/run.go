package show

import (
	"fmt"
	"io"

	"sudokulab/db"
	"sudokulab/internal/tabular"
)

// Run writes a run as runs show prints it: as text, its configuration,
// puzzle, budget, outcome, final grid and trajectory; as JSON, its fields
// with the trajectory; as CSV, the trajectory alone, one row per point
// (the table a plot reads).
func Run(w io.Writer, format string, rd db.RunDetail) error {
	r, p, config, points := rd.Run, rd.Puzzle, rd.Config.Name, rd.Trajectory
	t := db.TrajectoryTable(points)
	tcols, rows := t.Columns, t.Rows
	switch format {
	case "csv":
		return tabular.Write(w, format, tcols, rows)
	case "json":
		var final any
		if len(r.FinalGrid.Cells) > 0 {
			final = r.FinalGrid.String()
		}
		return tabular.WriteJSON(w, object{
			{"id", r.ID}, {"config", config}, {"config_id", r.ConfigID}, {"experiment_id", nullID(r.ExperimentID)},
			{"puzzle_id", r.PuzzleID}, {"puzzle", p.Givens.String()}, {"seed", r.Seed},
			{"max_evaluations", r.MaxEvaluations}, {"max_generations", r.MaxGenerations}, {"timeout_ms", r.TimeoutMS},
			{"status", r.Status}, {"best_cost", r.BestCost}, {"generations", r.Generations}, {"evaluations", r.Evaluations},
			{"restarts", r.Restarts}, {"wall_seconds", r.WallSeconds}, {"cpu_seconds", r.CPUSeconds},
			{"prefilter_revisions", r.PrefilterRevisions}, {"nodes", r.Nodes}, {"guesses", r.Guesses},
			{"error", NullString(r.Error)}, {"final_grid", final}, {"code_version", r.CodeVersion}, {"host", r.Host},
			{"started_at", r.StartedAt}, {"finished_at", r.FinishedAt},
			{"trajectory", tabular.RowObjects(tcols, rows)},
		})
	}
	fmt.Fprintf(w, "run %d: configuration %s on puzzle %d, seed %d, budget %s\n", r.ID, config, r.PuzzleID, r.Seed, r.BudgetText())
	fmt.Fprintf(w, "status %s", r.Status)
	if r.BestCost != nil {
		fmt.Fprintf(w, ", best cost %d", *r.BestCost)
	}
	fmt.Fprintf(w, ", %d generations, %d evaluations, %d restarts", r.Generations, r.Evaluations, r.Restarts)
	if r.WallSeconds != nil {
		fmt.Fprintf(w, ", %.3fs", *r.WallSeconds)
	}
	fmt.Fprintln(w)
	if r.Error != "" {
		fmt.Fprintf(w, "error: %s\n", r.Error)
	}
	fmt.Fprintf(w, "code %s on %s, %s to %s\n", r.CodeVersion, r.Host, db.FormatTime(r.StartedAt), db.FormatTime(r.FinishedAt))
	fmt.Fprintf(w, "puzzle:\n%s", p.Givens.Pretty())
	if len(r.FinalGrid.Cells) > 0 {
		fmt.Fprintf(w, "final grid:\n%s", r.FinalGrid.Pretty())
	}
	fmt.Fprintf(w, "trajectory (%d points):\n", len(points))
	return tabular.Write(w, format, tcols, rows)
}
