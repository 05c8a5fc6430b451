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

	"sudokulab"
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

// Solve implements sudokulab.Solver.
func (sv *solver) Solve(ctx context.Context, puzzle sudokulab.Grid, budget sudokulab.Budget, rng *rand.Rand, obs sudokulab.Observer) (sudokulab.Result, error) {
	return newEngine(sv.s, puzzle).run(ctx, budget, rng, obs), nil
}
