package tune

// UpdatedModel returns the sampling model of an elite with the given
// values after updateModels before iteration it of iters with
// newCandidates new candidates: each numerical parameter's deviation and
// each categorical's probabilities.
func UpdatedModel(s Space, values []float64, it, iters, newCandidates int) (sd []float64, probs [][]float64) {
	e := &Candidate{ID: 1, Values: values}
	updateModels(s, []*Candidate{e}, map[int]*Candidate{1: e}, it, iters, newCandidates)
	return e.model.sd, e.model.probs
}

// SoftRestart runs the soft restart's check on elites with the given
// values (IDs 1, 2, ...) and new candidates vals sampled around parents,
// restarting the models found (fresh from initialModel), and returns the
// IDs of the elites restarted and their models' deviations and
// probabilities after the restart, by ID.
func SoftRestart(s Space, elites, vals [][]float64, parents []int, newCandidates int) (ids []int, sd map[int][]float64, probs map[int][][]float64) {
	var es []*Candidate
	for i, v := range elites {
		es = append(es, &Candidate{ID: i + 1, Values: v, model: initialModel(s)})
	}
	restart := similar(s, es, vals, parents)
	restartModels(s, restart, newCandidates)
	sd, probs = map[int][]float64{}, map[int][][]float64{}
	for _, e := range restart {
		ids = append(ids, e.ID)
		sd[e.ID], probs[e.ID] = e.model.sd, e.model.probs
	}
	return ids, sd, probs
}
