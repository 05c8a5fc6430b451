package compare

// Runs counts the runs of A and of B over every puzzle either ran on
// (Overall counts only the puzzles both ran on).
func (r *Result) Runs() (a, b int) {
	for _, p := range r.Puzzles {
		a += p.A.Runs
		b += p.B.Runs
	}
	return a, b
}
