// Package francoga implements the genetic algorithm of Franco, Gómez and
// Gallego, "Aplicación de técnicas de optimización combinatorial a la
// solución del Sudoku" (Scientia et Technica, Universidad Tecnológica de
// Pereira), section 5.1: a population of grids filled at random, the
// objective Fo = symbols missing from rows, columns and boxes (section 5.1.C,
// sudokulab.Missing.Total, so the recorded cost is Fo itself), roulette
// selection on Fa = k*max(Fo) - Fo (Eq. 4), a crossover that gives one child
// the better box of the two parents box by box and the other the better row
// (or column) unit by unit, four kinds of mutation, and the incumbent put
// back in place of the worst individual when a generation has nothing as
// good (section 5.1.F).
//
// It works for every box shape.
//
// Choices the paper leaves open, each documented where it is made:
//   - k is not given ("Tasa de adaptación (k > 1)"): the default is 2,
//     the best of 1.1, 1.5, 2 and 5 in a 10-run sweep on Caso 1
//     (docs/reproduction-ga.md).
//   - "las mejores filas o columnas de los dos padres, seleccionado de forma
//     aleatoria con igual probabilidad": a fair coin decides, per child,
//     whether child 2 is built from rows or from columns; each row (column)
//     then comes from the parent missing fewer symbols in it. Ties in either
//     child go to a parent drawn at random.
//   - "Cantidad de mutaciones 15" is read as 15 mutations per generation,
//     each on an individual drawn at random from the new population, of a
//     kind drawn with the given probabilities. Swaps exchange two non-given
//     cells of a random row, column or box (with at least two); the element
//     mutation gives a random non-given cell a value drawn from 1..N.
//   - The new population is the children (the population size stays
//     constant, section 5.1.E); pairs not crossed pass on copies.
//
// The AC3 prefilter (not in the paper; Soto et al. 2014, section 5, and
// package ac3) is the parameter prefilter: none (the default, the paper's
// algorithm, drawing exactly the same random numbers as before the
// parameter existed), ac3 or gac. With a prefilter, the cells it reduces to
// one value are treated as givens, every other cell of the first
// population gets a value drawn uniformly from its pruned domain, the
// element mutation draws from the domain too, and a row, column or box
// swap exchanges two cells of the chosen unit drawn uniformly among the
// pairs whose swap keeps both within their domains (a unit with no such
// pair is left alone). The crossover needs no change: every cell of a
// child comes from the same cell of a parent, so children of parents
// within the domains are within them. A puzzle the prefilter proves
// unsolvable ends unsolved after the first population, filled without the
// prefilter.
//
// Counting: one evaluation per individual evaluated (the initial population
// and every child), one generation per GA generation. Each child is
// evaluated once, after the crossover and the generation's mutations, by a
// sudokulab.Tally recount: every child is assembled from two parents' units,
// so a delta update would save nothing; the incumbent and the population's
// tallies are copied, never recounted.
package francoga

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"sudokulab"
	"sudokulab/solvers/ac3"
)

// The kinds of mutation, indexes of Settings.Weights.
const (
	MutateRow     = iota // swap two cells of a row
	MutateCol            // swap two cells of a column
	MutateBox            // swap two cells of a box
	MutateElement        // set a cell to a random symbol
)

// Settings are the parameters of the GA. A zero field means the value of
// the paper's Tabla 3 (or, for K, the documented choice).
type Settings struct {
	// Population is the number of individuals (16).
	Population int
	// Crossover is the probability that a pair of parents is crossed (0.9).
	Crossover float64
	// Mutations is the number of mutations per generation (15).
	Mutations int
	// Weights are the relative probabilities of the mutation kinds, indexed
	// by MutateRow..MutateElement; all zero means {0, 0.1, 0.5, 0.4}.
	Weights [4]float64
	// K is the adaptation rate of Fa = K*max(Fo) - Fo, above 1 (2).
	K float64
	// Prefilter is the domain filtering before the search: ac3.None (the
	// default; the paper's algorithm), ac3.AC3 or ac3.GAC.
	Prefilter string
	// Propagate is the propagation while the first population is built:
	// ac3.PropagateNone (the default), ac3.PropagateSingles or
	// ac3.PropagateHidden.
	Propagate string
}

func (s Settings) withDefaults() Settings {
	if s.Population == 0 {
		s.Population = 16
	}
	if s.Crossover == 0 {
		s.Crossover = 0.9
	}
	if s.Mutations == 0 {
		s.Mutations = 15
	}
	if s.Weights == [4]float64{} {
		s.Weights = [4]float64{0, 0.1, 0.5, 0.4}
	}
	if s.K == 0 {
		s.K = 2
	}
	if s.Prefilter == "" {
		s.Prefilter = ac3.None
	}
	if s.Propagate == "" {
		s.Propagate = ac3.PropagateNone
	}
	return s
}

// New returns the GA with the given settings.
func New(s Settings) (sudokulab.Solver, error) {
	s = s.withDefaults()
	switch {
	case s.Population < 2:
		return nil, fmt.Errorf("francoga: population %d, want at least 2", s.Population)
	case s.K < 1:
		return nil, fmt.Errorf("francoga: k %g, want at least 1", s.K)
	case !slices.Contains(ac3.Choices, s.Prefilter):
		return nil, fmt.Errorf("francoga: unknown prefilter %q", s.Prefilter)
	case !slices.Contains(ac3.PropagateChoices, s.Propagate):
		return nil, fmt.Errorf("francoga: unknown propagate %q", s.Propagate)
	}
	for _, w := range s.Weights {
		if w < 0 {
			return nil, fmt.Errorf("francoga: negative mutation weight in %v", s.Weights)
		}
	}
	return &solver{s: s}, nil
}

type solver struct{ s Settings }

var _ sudokulab.Solver = (*solver)(nil)

// Solve implements sudokulab.Solver. When the prefilter proves that the
// puzzle has no solution it returns, unsolved, the best of a first
// population filled without the prefilter.
func (sv *solver) Solve(ctx context.Context, puzzle sudokulab.Grid, budget sudokulab.Budget, rng *rand.Rand, obs sudokulab.Observer) (sudokulab.Result, error) {
	d, infeasible, err := ac3.ForSolver(sv.s.Prefilter, puzzle)
	if err != nil {
		return sudokulab.Result{}, err
	}
	e := newEngine(sv.s, puzzle, d, !infeasible && sv.s.Prefilter != ac3.None)
	if sv.s.Propagate != ac3.PropagateNone {
		if e.prop, err = ac3.NewPropagator(puzzle.Shape, sv.s.Propagate); err != nil {
			return sudokulab.Result{}, err
		}
		e.prop.Reset(d.Grid().Cells) // a failure leaves Draw to the domains
	}
	res := e.run(ctx, budget, rng, obs, infeasible)
	res.PrefilterRevisions = int64(d.Revisions())
	return res, nil
}
