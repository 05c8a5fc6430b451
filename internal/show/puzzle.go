package show

import (
	"fmt"
	"io"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/tabular"
	"sudokulab/raters"
)

// Puzzle writes a stored puzzle as puzzles show prints it: as text, the
// board, its solution, collections, ratings (with the se rater's path) and
// the first shown of its runs; as JSON, its fields with those tables; as
// CSV, its fields in one row.
func Puzzle(w io.Writer, format string, v *db.PuzzleView, shown int) error {
	p, mt, rt, runt := v.Puzzle, v.Memberships, v.RatingTable, v.FirstRuns
	switch format {
	case "json":
		return tabular.WriteJSON(w, append(puzzleObject(p),
			field{"collections", tabular.RowObjects(mt.Columns, mt.Rows)},
			field{"ratings", tabular.RowObjects(rt.Columns, rt.Rows)},
			field{"runs", v.Runs},
			field{"first_runs", tabular.RowObjects(runt.Columns, runt.Rows)}))
	case "csv":
		return tabular.WriteRecord(w, "csv", nil, append(puzzleObject(p), field{"runs", v.Runs}))
	}
	fmt.Fprintf(w, "puzzle %d: %s, %d givens, solutions: %s\n%s%s\n", p.ID, p.Givens.Shape, p.Givens.Givens(), PuzzleCount(p), p.Givens.Pretty(), p.Givens)
	if p.HasSolution() {
		fmt.Fprintf(w, "solution:\n%s", p.Solution.Pretty())
	}
	fmt.Fprintln(w, "\ncollections:")
	if err := tabular.Write(w, "table", mt.Columns, mt.Rows); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nratings:")
	if err := tabular.Write(w, "table", []string{"rater", "version", "value", "label", "import_id"}, columns(rt.Rows, 0, 1, 3, 4, 6)); err != nil {
		return err
	}
	for _, r := range v.Ratings {
		writeRatingPath(w, r)
	}
	fmt.Fprintf(w, "\nruns: %d\n", v.Runs)
	if v.Runs > shown {
		fmt.Fprintf(w, "(the first %d shown; sudokulab runs list --runs-where 'puzzle_id = %d' lists all)\n", shown, p.ID)
	}
	return tabular.Write(w, "table", runt.Columns, runt.Rows)
}

// puzzleObject is a stored puzzle's fields, as puzzles show prints them.
func puzzleObject(p *sudokulab.Puzzle) object {
	var count, solution any
	if p.SolutionCount != nil {
		count = *p.SolutionCount
	}
	if p.HasSolution() {
		solution = p.Solution.String()
	}
	return object{{"id", p.ID}, {"shape", p.Givens.Shape.String()}, {"size", p.Givens.N()},
		{"givens", p.Givens.Givens()}, {"grid", p.Givens.String()}, {"solution_count", count},
		{"count_status", p.CountStatus}, {"solution", solution},
		{"symmetry_form", NullString(p.SymmetryForm)}, {"created_at", p.CreatedAt}}
}

// writeRatingPath prints the solution path of a rating whose details
// carry one (the se rater's): the hardest technique, then one step a line.
func writeRatingPath(w io.Writer, r sudokulab.Rating) {
	d, ok := raters.ReadSEPath(r.Details)
	if !ok {
		return
	}
	fmt.Fprintf(w, "\n%s path, %d steps (hardest: %s; before the first placement: %s; first step: %s):\n",
		r.Rater, len(d.Steps), orDash(d.ERTechnique), orDash(d.EPTechnique), orDash(d.EDTechnique))
	for i, s := range d.Steps {
		fmt.Fprintf(w, "%4d  %s\n", i+1, s)
	}
}

// columns returns the given columns of rows.
func columns(rows [][]any, cols ...int) [][]any {
	out := make([][]any, len(rows))
	for i, r := range rows {
		out[i] = make([]any, len(cols))
		for j, c := range cols {
			out[i][j] = r[c]
		}
	}
	return out
}
