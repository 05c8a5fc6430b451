// Package satoinoue implements the genetic algorithm of Sato and Inoue,
// "Solving Sudoku with Genetic Operations that Preserve Building Blocks"
// (IEEE ITW 2010): a population of grids whose boxes are always
// permutations, a crossover that copies whole bands of rows (or stacks of
// columns) from the parent that scores better on them, swap mutation inside
// a box, a local search that makes several mutated children per parent and
// keeps the best, tournament selection, and as an option the correction
// based on the disparity hypothesis (section V, Table 4).
//
// Every variant of the paper's Table 1 is a parameter setting: "mutation"
// (swap mutation only), "mut-cross" (mutation and crossover) and
// "mut-cross-ls" (mutation, crossover and local search, the default).
//
// The fitness (section IV.A, Eq. 1) is the number of distinct symbols per
// row plus per column, 2N^2 (162 for 9x9) when solved. Boxes are always
// permutations, so the recorded cost, 2N^2 minus the fitness, equals the
// missing-symbol cost of sudokulab.Missing.Total.
//
// The operators generalise to every box shape: a band is BoxRows rows (a
// row of boxes), a stack is BoxCols columns (a column of boxes), and the
// crossover still copies whole boxes, so children stay box permutations.
//
// The AC3 prefilter (not in the paper; Soto et al. 2014, section 5, and
// package ac3) is the parameter prefilter: none (the default, the paper's
// algorithm, drawing exactly the same random numbers as before the
// parameter existed), ac3 or gac. With a prefilter, the cells it reduces to
// one value are treated as givens, each box of the first population is a
// random permutation within the pruned domains (ac3.Domains.FillUnit), and
// a mutation swaps two cells of a box drawn uniformly among the pairs whose
// swap keeps both within their domains (a box with no such pair is left
// alone). The crossover needs no change: every cell of a child comes from
// the same cell of a parent (each box whole from one parent), so children
// of parents within the domains are within them. The local search is the
// mutation of several children, so it too stays within them. A puzzle the
// prefilter proves unsolvable ends unsolved after the first population,
// filled without the prefilter.
//
// Choices the paper leaves open, each documented where it is made:
//   - A generation selects P parents by tournament, pairs them in order and
//     crosses each pair with the crossover rate (section III.A.2); each of
//     the P results is then mutated Children times (section III.B: "using
//     mutation to generate a number of children that is an integer multiple
//     of the number of parents"). The next generation is, by default, the
//     best child of each parent (Selection "per-parent", after Fig. 6: "If
//     one parent generates multiple child individuals ... Selecting the
//     high-scored individuals from among the generated child candidates");
//     Selection "global" keeps the P best of all children, the other
//     reading of "selecting from them a equal to the number of parents on
//     order of highest score". Per-parent solved No. 29 in 29 of 30 runs,
//     global in 22 of 30 (docs/reproduction-ga.md). With one child per
//     parent the children replace the parents.
//   - The crossover gives band (stack) ties to a parent drawn at random.
//   - Mutation (section III.A.3: "Mutations are performed for each
//     sub-block according to the mutation rate") visits every box and, with
//     the mutation rate, swaps two of its free cells once. MutationScope
//     "individual" is the other reading tried: with the rate, a child gets
//     one swap in a random box. MutationDraw "any" is the third: the two
//     cells are drawn among all the cells of the box and the swap is
//     skipped when either is a given (the "illegal attempt" of the help
//     array of Mantere and Koljonen, the paper's references [5-7]); a box
//     then mutates with the rate times the chance that both draws are
//     free, 0.08 on average for No. 1's boxes. It reproduces the swap
//     mutation column of Table 1 where the literal draw solves nothing
//     (docs/reproduction-ga.md).
//   - The disparity correction (section V, after Wada et al.) adds, per
//     parent, DisparityChildren children mutated at the high rate
//     DisparityMutation alongside the low-rate ones; they compete with them
//     for the next generation (with per-parent selection, with the other
//     children of the same parent).
//   - Rates are applied as 16-bit thresholds: a rate r happens with
//     probability round(r*65536)/65536 (0.3 becomes 0.29999).
//   - There is no elitism by default: the paper mentions none. Elitism E
//     copies the E best individuals unchanged into the next generation in
//     place of its E worst; Selection "plus" keeps the P best of parents
//     and children together. Both are ours, for the investigation in
//     docs/reproduction-ga.md, as is AvoidGivens (a mutation redraws, up
//     to 10 times, a swap that repeats a given in a row or column), and so
//     are Selection "pool" (all children survive and the next tournaments
//     draw from them) and Restart (a fresh first population after Restart
//     generations without a better best of the attempt, the section V
//     call for "a function for escaping local solution" answered as
//     RESEDA does; RestartSchedule luby or geometric makes the patience
//     grow from attempt to attempt instead, so that it needs no tuning).
//     The best grid ever seen is kept aside for the result.
//
// Counting: one evaluation per individual whose fitness is computed (the
// initial population and every child), one generation per GA generation.
package satoinoue

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"sudokulab"
	"sudokulab/solvers/ac3"
	"sudokulab/solvers/internal/restart"
)

// The variants of Table 1.
const (
	VariantMutation   = "mutation"     // swap mutation only
	VariantMutCross   = "mut-cross"    // mutation and crossover
	VariantMutCrossLS = "mut-cross-ls" // mutation, crossover and local search
)

// The ways the local search picks the next generation from the children.
const (
	SelectionGlobal    = "global"     // the P best of all children
	SelectionPerParent = "per-parent" // the best child of each parent
	SelectionPlus      = "plus"       // the P best of parents and children together
	SelectionPool      = "pool"       // every child; the next tournaments draw from all of them
)

// The scopes of the mutation rate.
const (
	ScopeBox        = "box"        // each box gets a swap with the rate
	ScopeIndividual = "individual" // each child gets one swap, in a random box, with the rate
)

// The ways a mutation draws the two cells it swaps in a box.
const (
	DrawFree = "free" // two of the box's free cells
	DrawAny  = "any"  // two of the box's cells; no swap when either is a given
)

// Settings are the parameters of the GA. A zero field means the paper's
// value (section IV.A) or, for the disparity fields, the documented choice.
type Settings struct {
	// Variant is VariantMutCrossLS (default), VariantMutCross or
	// VariantMutation (Table 1).
	Variant string
	// Population is the number of individuals (150).
	Population int
	// Children is the number of child candidates per parent when local
	// search is on (2); the other variants make one child per parent.
	Children int
	// Crossover is the probability that a pair of parents is crossed (0.3).
	Crossover float64
	// Mutation is the probability that a box gets one swap (0.3).
	Mutation float64
	// Selection is how the local search keeps P of the children:
	// SelectionPerParent (default) or SelectionGlobal.
	Selection string
	// Elitism is how many of the best individuals pass unchanged into the
	// next generation, in place of its worst (not in the paper: 0).
	Elitism int
	// MutationScope says what the mutation rate applies to: ScopeBox
	// (default) or ScopeIndividual.
	MutationScope string
	// MutationDraw says how a box mutation draws its two cells: DrawFree
	// (default), two distinct free cells, as section III.A.3 describes;
	// DrawAny, two distinct cells of the whole box, the swap skipped when
	// either is a given (the "illegal attempt" of the help array of
	// Mantere and Koljonen, whose chromosome the paper builds on), so that
	// a box with g givens of N cells mutates with the rate times
	// (N-g)(N-g-1)/(N(N-1)).
	MutationDraw string
	// AvoidGivens makes a mutation redraw (up to 10 times) a swap that
	// would put a symbol in the row or column of an equal given (not in
	// this paper). With a prefilter the mutation draws exactly among the
	// swaps that repeat no given (and, with AC3 or GAC, none does).
	AvoidGivens bool
	// Restart, when positive, starts a new attempt from a fresh random
	// population once the best cost of the current attempt has not
	// improved for Restart generations (not in the paper: 0, never; the
	// restart idea of RESEDA, Maire and Prissette 2012, section 4). The
	// restart takes the place of one generation. With RestartSchedule
	// luby or geometric, Restart is the unit of the patience.
	Restart int
	// RestartSchedule is the patience of each attempt (package
	// solvers/internal/restart): restart.Fixed (default), Restart
	// generations for every attempt; restart.Luby, Restart times the Luby
	// sequence 1, 1, 2, 1, 1, 2, 4, ...; restart.Geometric, Restart times
	// RestartFactor^(a-1) for attempt a. Not in the paper.
	RestartSchedule string
	// RestartFactor is the growth of the geometric schedule (2).
	RestartFactor float64
	// Tournament is the tournament size (3).
	Tournament int
	// Disparity adds the disparity-hypothesis correction (Table 4).
	Disparity bool
	// DisparityMutation is the high mutation rate of the extra children
	// (1.0: every box gets a swap).
	DisparityMutation float64
	// DisparityChildren is how many high-rate children each parent gets (1).
	DisparityChildren int
	// Prefilter is the domain filtering before the search: ac3.None (the
	// default; the paper's algorithm), ac3.AC3 or ac3.GAC.
	Prefilter string
	// Propagate is the propagation while an individual is built (the
	// first population and each restart's): ac3.PropagateNone (the
	// default), ac3.PropagateSingles or ac3.PropagateHidden.
	Propagate string
}

func (s Settings) withDefaults() Settings {
	if s.Variant == "" {
		s.Variant = VariantMutCrossLS
	}
	if s.Population == 0 {
		s.Population = 150
	}
	if s.Children == 0 {
		s.Children = 2
	}
	if s.Crossover == 0 {
		s.Crossover = 0.3
	}
	if s.Mutation == 0 {
		s.Mutation = 0.3
	}
	if s.Selection == "" {
		s.Selection = SelectionPerParent
	}
	if s.MutationScope == "" {
		s.MutationScope = ScopeBox
	}
	if s.MutationDraw == "" {
		s.MutationDraw = DrawFree
	}
	if s.Tournament == 0 {
		s.Tournament = 3
	}
	if s.DisparityMutation == 0 {
		s.DisparityMutation = 1
	}
	if s.DisparityChildren == 0 {
		s.DisparityChildren = 1
	}
	if s.Prefilter == "" {
		s.Prefilter = ac3.None
	}
	if s.Propagate == "" {
		s.Propagate = ac3.PropagateNone
	}
	if s.RestartSchedule == "" {
		s.RestartSchedule = restart.Fixed
	}
	if s.RestartFactor == 0 {
		s.RestartFactor = 2
	}
	return s
}

// schedule returns the restart schedule of the settings.
func (s Settings) schedule() restart.Schedule {
	return restart.Schedule{Kind: s.RestartSchedule, Unit: int64(s.Restart), Factor: s.RestartFactor}
}

// New returns the GA with the given settings.
func New(s Settings) (sudokulab.Solver, error) {
	s = s.withDefaults()
	switch {
	case s.Variant != VariantMutation && s.Variant != VariantMutCross && s.Variant != VariantMutCrossLS:
		return nil, fmt.Errorf("satoinoue: unknown variant %q", s.Variant)
	case !slices.Contains([]string{SelectionGlobal, SelectionPerParent, SelectionPlus, SelectionPool}, s.Selection):
		return nil, fmt.Errorf("satoinoue: unknown selection %q", s.Selection)
	case s.MutationScope != ScopeBox && s.MutationScope != ScopeIndividual:
		return nil, fmt.Errorf("satoinoue: unknown mutation scope %q", s.MutationScope)
	case s.MutationDraw != DrawFree && s.MutationDraw != DrawAny:
		return nil, fmt.Errorf("satoinoue: unknown mutation draw %q", s.MutationDraw)
	case s.Population < 2:
		return nil, fmt.Errorf("satoinoue: population %d, want at least 2", s.Population)
	case s.Children < 1 || s.DisparityChildren < 1 || s.Tournament < 1:
		return nil, fmt.Errorf("satoinoue: children, disparity children and tournament size must be at least 1")
	case !slices.Contains(ac3.Choices, s.Prefilter):
		return nil, fmt.Errorf("satoinoue: unknown prefilter %q", s.Prefilter)
	case !slices.Contains(ac3.PropagateChoices, s.Propagate):
		return nil, fmt.Errorf("satoinoue: unknown propagate %q", s.Propagate)
	case !slices.Contains([]string{restart.Fixed, restart.Luby, restart.Geometric}, s.RestartSchedule):
		return nil, fmt.Errorf("satoinoue: unknown restart schedule %q", s.RestartSchedule)
	case s.RestartFactor < 1:
		return nil, fmt.Errorf("satoinoue: restart factor %g, want at least 1", s.RestartFactor)
	}
	return &solver{s: s}, nil
}

// solver is the GA with resolved settings; all run state lives in an
// engine made by Solve, so one solver may run on several goroutines.
type solver struct {
	s Settings
}

var _ sudokulab.Solver = (*solver)(nil)

// Solve implements sudokulab.Solver. It returns an error if the givens
// repeat a symbol in a box, since the boxes could then not be permutations.
// When the prefilter proves that the puzzle has no solution it returns,
// unsolved, the best of a first population filled without the prefilter.
func (sv *solver) Solve(ctx context.Context, puzzle sudokulab.Grid, budget sudokulab.Budget, rng *rand.Rand, obs sudokulab.Observer) (sudokulab.Result, error) {
	d, infeasible, err := ac3.ForSolver(sv.s.Prefilter, puzzle)
	if err != nil {
		return sudokulab.Result{}, err
	}
	e, err := newEngine(sv.s, puzzle, d, !infeasible && sv.s.Prefilter != ac3.None)
	if err != nil {
		return sudokulab.Result{}, err
	}
	if sv.s.Propagate != ac3.PropagateNone {
		if e.prop, err = ac3.NewPropagator(puzzle.Shape, sv.s.Propagate); err != nil {
			return sudokulab.Result{}, err
		}
		e.prop.Reset(d.Grid().Cells) // a failure leaves Fill to FillUnit
		for b := range e.n {
			e.boxes = append(e.boxes, 2*e.n+b)
		}
	}
	res := e.run(ctx, budget, rng, obs, infeasible)
	res.PrefilterRevisions = int64(d.Revisions())
	return res, nil
}
