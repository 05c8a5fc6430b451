package francoga

import (
	"sudokulab"
	"sudokulab/solvers/ac3"
)

// Paper is the full citation of the source.
const Paper = "J. F. Franco B., O. Gómez Carmona and R. A. Gallego R., \"Aplicación de técnicas de optimización " +
	"combinatorial a la solución del Sudoku\" (Combinatorial optimization techniques applied to Sudoku's solution), " +
	"Scientia et Technica, Universidad Tecnológica de Pereira, 2008, section 5 (genetic algorithm)"

// Info describes the GA for the solver registry: its parameters with the
// values of the paper's Tabla 3, presets for its Tablas 3 and 4, and
// Tabla 3's settings after the AC3 prefilter.
func Info() sudokulab.SolverInfo {
	return sudokulab.SolverInfo{
		Name:     "franco-ga",
		Summary:  "GA over random fillings: roulette on k*max(Fo)-Fo, best-box and best-row/column crossover, four mutation kinds, incumbent re-inserted",
		Counting: "evaluation: an individual evaluated (the initial population and every child); generation: a GA generation; restarts: none; prefilter work in prefilter_revisions",
		Paper:    Paper,
		Params: []sudokulab.ParamSpec{
			{Name: "population", Kind: sudokulab.ParamInt, Default: int64(16), Min: 2, Max: 100000,
				Doc: "population size (Población Inicial)", Section: "Franco §6.2, Tabla 3"},
			{Name: "crossover", Kind: sudokulab.ParamFloat, Default: 0.9, Min: 0.001, Max: 1,
				Doc: "probability that a pair of parents is crossed (Taza de cruzamiento)", Section: "Franco §5.1.E, Tabla 3"},
			{Name: "mutations", Kind: sudokulab.ParamInt, Default: int64(15), Min: 1, Max: 100000,
				Doc: "mutations per generation, each on a random individual (Cantidad de mutaciones)", Section: "Franco §5.1.F, Tabla 3"},
			{Name: "mutation-row", Kind: sudokulab.ParamFloat, Default: 0.0, Min: 0, Max: 1,
				Doc: "probability of a swap of two cells of a row (Mutación en filas)", Section: "Franco §5.1.F, Tabla 3"},
			{Name: "mutation-col", Kind: sudokulab.ParamFloat, Default: 0.1, Min: 0, Max: 1,
				Doc: "probability of a swap of two cells of a column (Mutación en columnas)", Section: "Franco §5.1.F, Tabla 3"},
			{Name: "mutation-box", Kind: sudokulab.ParamFloat, Default: 0.5, Min: 0, Max: 1,
				Doc: "probability of a swap of two cells of a box (Mutación en cuadros)", Section: "Franco §5.1.F, Tabla 3"},
			{Name: "mutation-element", Kind: sudokulab.ParamFloat, Default: 0.4, Min: 0, Max: 1,
				Doc: "probability of a random new symbol in one cell (Mutación de elementos)", Section: "Franco §5.1.F, Tabla 3"},
			{Name: "k", Kind: sudokulab.ParamFloat, Default: 2.0, Min: 1, Max: 100,
				Doc: "adaptation rate of Fa = k*max(Fo) - Fo (k > 1; the paper gives no value; 2 is ours, from a 10-run sweep on Caso 1)", Section: "Franco §5.1.D, Eq. 4"},
			ac3.Param(ac3.None, "Franco §5.1.B initialization and §5.1.F mutation (extension: Soto et al. 2014 §5)"),
			ac3.PropagateParam("when the first population is built (§5.1.B, the GA's one constructive step): each empty cell draws its symbol among its candidates left, propagated (ac3.Propagator.Draw); selection, crossover and mutation search as without it"),
		},
		Presets: []sudokulab.Preset{
			{Name: "franco-table3",
				Description: "Tabla 3 (same parameters for the four cases): population 16, crossover 90%, 15 mutations, row/column/box/element 0/10/50/40%",
				Set:         map[string]string{}},
			{Name: "franco-table4",
				Description: "Tabla 4 (tuned for Caso 1): population 10, crossover 90%, 15 mutations, row/column/box/element 0/33/33/34%",
				Set:         map[string]string{"population": "10", "mutation-col": "0.33", "mutation-box": "0.33", "mutation-element": "0.34"}},
			{Name: "franco-table3-ac3",
				Description: "franco-table3 after the AC3 prefilter of Soto et al. 2014 (not in the paper; see docs/reproduction-ga.md)",
				Set:         map[string]string{ac3.ParamName: ac3.AC3}},
		},
		New: func(p sudokulab.Params) (sudokulab.Solver, error) {
			s := Settings{
				Population: int(p.Int("population")),
				Crossover:  p.Float("crossover"),
				Mutations:  int(p.Int("mutations")),
				Weights:    [4]float64{p.Float("mutation-row"), p.Float("mutation-col"), p.Float("mutation-box"), p.Float("mutation-element")},
				K:          p.Float("k"),
				Prefilter:  p.String(ac3.ParamName),
				Propagate:  p.String(ac3.PropagateParamName),
			}
			if s.Weights == [4]float64{} {
				return nil, sudokulab.Errorf(sudokulab.EINVALID, "franco-ga: the four mutation probabilities are all 0")
			}
			return New(s)
		},
	}
}
