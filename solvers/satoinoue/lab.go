package satoinoue

import (
	"sudokulab"
	"sudokulab/solvers/ac3"
	"sudokulab/solvers/internal/restart"
)

// Paper is the full citation of the source.
const Paper = "Y. Sato and H. Inoue, \"Solving Sudoku with Genetic Operations that Preserve Building Blocks\", " +
	"Proc. IEEE Information Theory Workshop (ITW 2010), Dublin, 2010, doi:10.1109/ITW.2010.5593375"

// Info describes the GA for the solver registry: its parameters with the
// paper's values (section IV.A), one preset per variant the paper
// compares (Tables 1, 3 and 4), and the main settings after the AC3
// prefilter.
func Info() sudokulab.SolverInfo {
	return sudokulab.SolverInfo{
		Name:     "sato-inoue-ga",
		Summary:  "GA over box permutations with band/stack crossover, in-box swap mutation, local search by several children per parent, tournament selection",
		Counting: "evaluation: an individual whose fitness is computed (the initial population and every child, local-search children included); generation: a GA generation; restart: a new population (parameter restart); prefilter work in prefilter_revisions",
		Paper:    Paper,
		Params: []sudokulab.ParamSpec{
			{Name: "variant", Kind: sudokulab.ParamChoice, Default: VariantMutCrossLS,
				Choices: []string{VariantMutCrossLS, VariantMutCross, VariantMutation},
				Doc:     "operators of Table 1: mutation+crossover+local search, mutation+crossover, or swap mutation only", Section: "Sato-Inoue §IV.B, Table 1"},
			{Name: "population", Kind: sudokulab.ParamInt, Default: int64(150), Min: 2, Max: 100000,
				Doc: "population size", Section: "Sato-Inoue §IV.A"},
			{Name: "children", Kind: sudokulab.ParamInt, Default: int64(2), Min: 1, Max: 100,
				Doc: "child candidates per parent in the local search (variant mut-cross-ls); the best population-size of them survive", Section: "Sato-Inoue §III.B, §IV.A"},
			{Name: "crossover", Kind: sudokulab.ParamFloat, Default: 0.3, Min: 0.001, Max: 1,
				Doc: "probability that a pair of parents is crossed (ignored by variant mutation)", Section: "Sato-Inoue §III.A.2, §IV.A"},
			{Name: "mutation", Kind: sudokulab.ParamFloat, Default: 0.3, Min: 0.001, Max: 1,
				Doc: "probability that a box of a child gets one swap of two free cells", Section: "Sato-Inoue §III.A.3, §IV.A"},
			{Name: "selection", Kind: sudokulab.ParamChoice, Default: SelectionPerParent,
				Choices: []string{SelectionPerParent, SelectionGlobal, SelectionPlus, SelectionPool},
				Doc:     "how the next generation is kept: the best child of each parent, the population-size best of all children, the best of parents and children (ours), or every child with the next tournaments drawing from all (ours)", Section: "Sato-Inoue §III.B"},
			{Name: "elitism", Kind: sudokulab.ParamInt, Default: int64(0), Min: 0, Max: 100000,
				Doc: "best individuals copied unchanged into the next generation (not in the paper)", Section: "Sato-Inoue §IV.A (not stated)"},
			{Name: "mutation-scope", Kind: sudokulab.ParamChoice, Default: ScopeBox,
				Choices: []string{ScopeBox, ScopeIndividual},
				Doc:     "what the mutation rate applies to: each box (one swap per mutated box) or each child (one swap in a random box)", Section: "Sato-Inoue §III.A.3"},
			{Name: "mutation-draw", Kind: sudokulab.ParamChoice, Default: DrawFree,
				Choices: []string{DrawFree, DrawAny},
				Doc:     "how a box mutation draws its two cells: two free cells, or two of all the box's cells with no swap when either is a given (the help-array reading)", Section: "Sato-Inoue §III.A.3, Fig. 5"},
			{Name: "restart", Kind: sudokulab.ParamInt, Default: int64(0), Min: 0, Max: 1e9,
				Doc: "start again from a fresh population after this many generations without a better best (0: never; not in the paper); with restart-schedule luby or geometric, the unit of the patience", Section: "Sato-Inoue §V (escaping local solutions; ours, after RESEDA §4)"},
			restart.Params("Sato-Inoue §V (ours)")[0],
			restart.Params("Sato-Inoue §V (ours)")[1],
			{Name: "avoid-givens", Kind: sudokulab.ParamBool, Default: false,
				Doc: "redraw (up to 10 times) a mutation swap that repeats a given in a row or column (not in the paper)", Section: "Sato-Inoue §III.A.3 (extension)"},
			{Name: "tournament", Kind: sudokulab.ParamInt, Default: int64(3), Min: 1, Max: 1000,
				Doc: "tournament size of the parent selection", Section: "Sato-Inoue §IV.A"},
			{Name: "disparity", Kind: sudokulab.ParamBool, Default: false,
				Doc: "add the disparity-hypothesis correction: extra children mutated at a high rate", Section: "Sato-Inoue §V, Table 4"},
			{Name: "disparity-mutation", Kind: sudokulab.ParamFloat, Default: 1.0, Min: 0.001, Max: 1,
				Doc: "the high mutation rate of the disparity children (our choice: the paper gives no value)", Section: "Sato-Inoue §V"},
			{Name: "disparity-children", Kind: sudokulab.ParamInt, Default: int64(1), Min: 1, Max: 100,
				Doc: "high-rate children per parent with the disparity correction (our choice)", Section: "Sato-Inoue §V"},
			ac3.Param(ac3.None, "Sato-Inoue §III.A initialization and mutation (extension: Soto et al. 2014 §5)"),
			ac3.PropagateParam("when an individual is built (§III.A.1, the first population and each restart's): each box's cells take its missing symbols one by one, each propagated (ac3.Propagator.Fill); crossover and mutation search as without it"),
		},
		Presets: []sudokulab.Preset{
			{Name: "sato-inoue-mut-cross-ls",
				Description: "Tables 1, 3 and 4 (mut+cross+LS): population 150, 2 children per parent, crossover 0.3, mutation 0.3, tournament 3; the paper stops at 100,000 generations",
				Set:         map[string]string{}},
			{Name: "sato-inoue-mut-cross",
				Description: "Table 1 (mut+cross): mutation and crossover, one child per parent",
				Set:         map[string]string{"variant": VariantMutCross}},
			{Name: "sato-inoue-mutation",
				Description: "Table 1 (swap mutation): swap mutation only, one child per parent",
				Set:         map[string]string{"variant": VariantMutation}},
			{Name: "sato-inoue-mut-cross-elite",
				Description: "Table 1 (mut+cross) with the best individual kept (elitism 1, not in the paper; see docs/reproduction-ga.md)",
				Set:         map[string]string{"variant": VariantMutCross, "elitism": "1"}},
			{Name: "sato-inoue-mutation-elite",
				Description: "Table 1 (swap mutation) with the best individual kept (elitism 1, not in the paper; see docs/reproduction-ga.md)",
				Set:         map[string]string{"variant": VariantMutation, "elitism": "1"}},
			{Name: "sato-inoue-mutation-any",
				Description: "Table 1 (swap mutation) with the help-array reading of the mutation: two cells of the whole box drawn, no swap when either is a given (see docs/reproduction-ga.md)",
				Set:         map[string]string{"variant": VariantMutation, "mutation-draw": DrawAny}},
			{Name: "sato-inoue-mut-cross-any",
				Description: "Table 1 (mut+cross) with the help-array reading of the mutation (see docs/reproduction-ga.md)",
				Set:         map[string]string{"variant": VariantMutCross, "mutation-draw": DrawAny}},
			{Name: "sato-inoue-mut-cross-ls-restart",
				Description: "ours: mut+cross+LS with the paper's settings, restarted from a fresh population after 5,000 generations without a better best (see docs/reproduction-ga.md)",
				Set:         map[string]string{"restart": "5000"}},
			{Name: "sato-inoue-mut-cross-ls-luby",
				Description: "ours: mut+cross+LS restarted on the untuned Luby schedule, patience 100 x (1, 1, 2, 1, 1, 2, 4, ...) generations (compare sato-inoue-mut-cross-ls-restart, whose 5,000 was tuned on the hard puzzles)",
				Set:         map[string]string{"restart": "100", restart.ParamSchedule: restart.Luby}},
			{Name: "sato-inoue-mut-cross-ls-geometric",
				Description: "ours: mut+cross+LS restarted on an untuned geometric schedule, patience 100, 200, 400, ... generations (compare sato-inoue-mut-cross-ls-restart)",
				Set:         map[string]string{"restart": "100", restart.ParamSchedule: restart.Geometric}},
			{Name: "sato-inoue-disparity",
				Description: "Table 4 (added disparity hypothesis): mut+cross+LS plus one child per parent mutated at rate 1.0",
				Set:         map[string]string{"disparity": "true"}},
			{Name: "sato-inoue-mut-cross-ls-ac3",
				Description: "sato-inoue-mut-cross-ls after the AC3 prefilter of Soto et al. 2014 (not in the paper; see docs/reproduction-ga.md)",
				Set:         map[string]string{ac3.ParamName: ac3.AC3}},
			{Name: "sato-inoue-disparity-ac3",
				Description: "sato-inoue-disparity after the AC3 prefilter of Soto et al. 2014 (not in the paper; see docs/reproduction-ga.md)",
				Set:         map[string]string{"disparity": "true", ac3.ParamName: ac3.AC3}},
		},
		New: func(p sudokulab.Params) (sudokulab.Solver, error) {
			return New(Settings{
				Variant:           p.String("variant"),
				Population:        int(p.Int("population")),
				Children:          int(p.Int("children")),
				Crossover:         p.Float("crossover"),
				Mutation:          p.Float("mutation"),
				Selection:         p.String("selection"),
				Tournament:        int(p.Int("tournament")),
				Elitism:           int(p.Int("elitism")),
				MutationScope:     p.String("mutation-scope"),
				MutationDraw:      p.String("mutation-draw"),
				Restart:           int(p.Int("restart")),
				RestartSchedule:   p.String(restart.ParamSchedule),
				RestartFactor:     p.Float(restart.ParamFactor),
				AvoidGivens:       p.Bool("avoid-givens"),
				Disparity:         p.Bool("disparity"),
				DisparityMutation: p.Float("disparity-mutation"),
				DisparityChildren: int(p.Int("disparity-children")),
				Prefilter:         p.String(ac3.ParamName),
				Propagate:         p.String(ac3.PropagateParamName),
			})
		},
	}
}
