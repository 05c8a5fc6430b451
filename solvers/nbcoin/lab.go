package nbcoin

import (
	"sudokulab"
	"sudokulab/solvers/ac3"
	"sudokulab/solvers/internal/restart"
)

// The parameter names.
const (
	ParamPopulation = "population"
	ParamSelection  = "selection"
	ParamStep       = "step"
	ParamUpperBound = "upper-bound"
	ParamLearning   = "learning"
	ParamPrecompute = "precompute"
	ParamOrder      = "order"
	ParamCredit     = "credit"
	ParamRestart    = "restart"
	// ParamNeighbour is the weight of a symbol already placed in the
	// cell's row or column when sampling (see the package doc).
	ParamNeighbour = "neighbour-weight"
	// ParamRestartSchedule and ParamRestartFactor choose the patience of
	// each attempt (package solvers/internal/restart).
	ParamRestartSchedule = restart.ParamSchedule
	ParamRestartFactor   = restart.ParamFactor
)

// The values of the order parameter: the order in which the free cells of
// a box draw their symbols.
const (
	OrderRandom     = "random"     // a random order per box and grid, as NHBSA samples
	OrderSequential = "sequential" // positions 1 to 9 of the box (Fig. 7), row by row
	OrderGreedy     = "greedy"     // the most likely cell first, as RESEDA samples a box
)

// The values of the learning parameter.
const (
	LearnSum  = "sum"  // eq. 4 and 5 as written: sums over the selected solutions
	LearnMean = "mean" // the sums divided by the size of the group
)

// The values of the credit parameter: which grids reward and punish a
// box's model.
const (
	CreditGrid = "grid" // every model learns from the best and worst C% of grids by eq. 1 over the whole grid
	CreditBox  = "box"  // each box's model learns from the best and worst C% by eq. 1 over the rows and columns through that box
)

// Info describes NB-COIN for the solver registry.
func Info() sudokulab.SolverInfo {
	return sudokulab.SolverInfo{
		Name:     "nb-coin",
		Summary:  "node-based coincidence algorithm: one symbol-by-position model per box, rewarded by the best and punished by the worst sampled grids",
		Counting: "evaluation: a sampled grid (population size per generation) and the first filled grid; generation: a population sampled; restart: a new attempt from the initial models (parameter restart)",
		Paper:    "K. Waiyapara, W. Wattanapornprom and P. Chongstitvatana, Solving Sudoku Puzzles with Node Based Coincidence Algorithm, Chulalongkorn University (shared/papers/nb-coin-waiyapara.txt; the text gives no venue or year)",
		Params: []sudokulab.ParamSpec{
			{Name: ParamPopulation, Kind: sudokulab.ParamInt, Default: int64(150), Min: 2, Max: 1e6,
				Doc: "grids sampled per generation", Section: "NB-COIN §V, Table I"},
			{Name: ParamSelection, Kind: sudokulab.ParamFloat, Default: 25.0, Min: 0.01, Max: 50,
				Doc: "selection pressure C: percent of the population rewarded (the best) and punished (the worst)", Section: "NB-COIN §III, Table I"},
			{Name: ParamStep, Kind: sudokulab.ParamFloat, Default: 0.4, Min: 0, Max: 10,
				Doc: "learning step k of eq. 4 and 5", Section: "NB-COIN §III eq. 4-5, Table I"},
			{Name: ParamUpperBound, Kind: sudokulab.ParamFloat, Default: 0.99, Min: 0.5, Max: 1,
				Doc: "largest probability a model entry may hold while its cell has another candidate", Section: "NB-COIN Table I"},
			{Name: ParamLearning, Kind: sudokulab.ParamChoice, Default: LearnSum, Choices: []string{LearnSum, LearnMean},
				Doc: "sum: eq. 4 and 5 summed over the selected grids as written; mean: divided by the group size", Section: "NB-COIN §III eq. 4-5"},
			{Name: ParamPrecompute, Kind: sudokulab.ParamBool, Default: true,
				Doc: "zero the model entries of symbols the givens of the cell's box, row or column hold", Section: "NB-COIN §IV, Fig. 7"},
			{Name: ParamOrder, Kind: sudokulab.ParamChoice, Default: OrderRandom, Choices: []string{OrderRandom, OrderSequential, OrderGreedy},
				Doc: "order in which a box's free cells draw their symbols: random (NHBSA), sequential, or greedy (most likely cell first)", Section: "NB-COIN §I, §III (sampling not specified)"},
			{Name: ParamCredit, Kind: sudokulab.ParamChoice, Default: CreditGrid, Choices: []string{CreditGrid, CreditBox},
				Doc: "selection of the grids that teach a box's model: grid (default), the best and worst C% by the whole grid's fitness, shared by all models; box, per box, by the fitness restricted to the rows and columns through the box", Section: "NB-COIN §IV (co-evolved models; selection not specified)"},
			{Name: ParamRestart, Kind: sudokulab.ParamInt, Default: int64(0), Min: 0, Max: 1e9,
				Doc: "start again from the initial models after this many generations without a better grid in the attempt (0: never; not in the paper); with restart-schedule luby or geometric, the unit of the patience", Section: "NB-COIN §V (ours, after RESEDA's restarts)"},
			restart.Params("NB-COIN §V (ours)")[0],
			restart.Params("NB-COIN §V (ours)")[1],
			{Name: ParamNeighbour, Kind: sudokulab.ParamFloat, Default: 1.0, Min: 0, Max: 1,
				Doc: "weight of a symbol already placed in the cell's row or column of the grid being sampled (boxes then drawn in random order): 1, the literal reading (no influence); 0, excluded; between, down-weighted", Section: "NB-COIN §IV (\"partially influenced by their neighborhood models\"; our reading)"},
			ac3.Param(ac3.None, "NB-COIN §IV pre-computation, generalised (extension: Soto et al. 2014 §5)"),
			ac3.PropagateParam("while a grid is sampled: each cell drawn from its box's model is fixed and propagated, and the next cells draw only from the candidates left; a box that reaches a cell with none is drawn again, and after 8 dead ends filled as a random permutation, the rest of that grid then sampled without propagation"),
		},
		Presets: []sudokulab.Preset{
			{Name: "nb-coin-table2", Description: "Table II: population 150, C = 25%, k = 0.4, upper bound 0.99 (the paper stops at 100,000 generations; give --max-generations 100000)",
				Set: map[string]string{}},
			{Name: "nb-coin-table2-mean", Description: "Table II settings with eq. 4 and 5 averaged over each group instead of summed (an alternative reading)",
				Set: map[string]string{ParamLearning: LearnMean}},
			{Name: "nb-coin-table2-ac3", Description: "Table II settings after the AC3 prefilter of Soto et al. 2014 (models start uniform over the pruned domains; sampling keeps to them)",
				Set: map[string]string{ac3.ParamName: ac3.AC3}},
			{Name: "nb-coin-table2-mean-ac3", Description: "nb-coin-table2-mean after the AC3 prefilter",
				Set: map[string]string{ParamLearning: LearnMean, ac3.ParamName: ac3.AC3}},
			{Name: "nb-coin-table2-box", Description: "Table II settings, each box's model taught by its own best and worst C% of grids, ranked by the fitness of the rows and columns through the box (the co-evolution reading of section IV)",
				Set: map[string]string{ParamCredit: CreditBox}},
			{Name: "nb-coin-table2-mean-box", Description: "nb-coin-table2-box with eq. 4 and 5 averaged over each group",
				Set: map[string]string{ParamCredit: CreditBox, ParamLearning: LearnMean}},
			{Name: "nb-coin-table2-box-restart", Description: "ours: nb-coin-table2-box restarted from the initial models after 300 generations without a better grid (see docs/reproduction-reseda-nbcoin.md)",
				Set: map[string]string{ParamCredit: CreditBox, ParamRestart: "300"}},
			{Name: "nb-coin-table2-neighbour", Description: "Table II settings, each cell sampled without the symbols already placed in its row or column (boxes in random order): the neighbour reading of section IV",
				Set: map[string]string{ParamNeighbour: "0"}},
			{Name: "nb-coin-table2-mean-neighbour", Description: "nb-coin-table2-neighbour with eq. 4 and 5 averaged over each group (the reading that solved No. 77 most often in our screening)",
				Set: map[string]string{ParamNeighbour: "0", ParamLearning: LearnMean}},
			{Name: "nb-coin-table2-box-luby", Description: "ours: nb-coin-table2-box restarted on the untuned Luby schedule, patience 100 x (1, 1, 2, 1, 1, 2, 4, ...) generations (compare nb-coin-table2-box-restart)",
				Set: map[string]string{ParamCredit: CreditBox, ParamRestart: "100", ParamRestartSchedule: restart.Luby}},
			{Name: "nb-coin-table2-propagate", Description: "Table II settings, each grid sampled with naked and hidden singles propagated after every cell drawn (the shared propagate setting; not in the paper)",
				Set: map[string]string{ac3.PropagateParamName: ac3.PropagateHidden}},
			{Name: "nb-coin-table2-box-geometric", Description: "ours: nb-coin-table2-box restarted on an untuned geometric schedule, patience 100, 200, 400, ... generations (compare nb-coin-table2-box-restart)",
				Set: map[string]string{ParamCredit: CreditBox, ParamRestart: "100", ParamRestartSchedule: restart.Geometric}},
		},
		New: newSolver,
	}
}

// settings are the resolved parameters.
type settings struct {
	population int
	group      int // solutions rewarded, and punished
	step       float64
	upper      float64
	mean       bool
	precompute bool
	order      string
	boxCredit  bool
	restart    restart.Schedule
	// neighbour says a cell's draw weighs the symbols already placed in
	// its row or column by nweight (neighbour-weight below 1).
	neighbour bool
	nweight   float64
	prefilter string
	propagate string
}

func newSolver(p sudokulab.Params) (sudokulab.Solver, error) {
	s := settings{
		population: int(p.Int(ParamPopulation)),
		step:       p.Float(ParamStep),
		upper:      p.Float(ParamUpperBound),
		mean:       p.String(ParamLearning) == LearnMean,
		precompute: p.Bool(ParamPrecompute),
		order:      p.String(ParamOrder),
		boxCredit:  p.String(ParamCredit) == CreditBox,
		nweight:    p.Float(ParamNeighbour),
		prefilter:  p.String(ac3.ParamName),
		propagate:  p.String(ac3.PropagateParamName),
	}
	s.neighbour = s.nweight < 1
	sched, err := restart.FromParams(p, p.Int(ParamRestart))
	if err != nil {
		return nil, err
	}
	s.restart = sched
	// At most 50%, rounded down: the two groups never overlap.
	s.group = max(1, int(float64(s.population)*p.Float(ParamSelection)/100))
	return &solver{set: s}, nil
}
