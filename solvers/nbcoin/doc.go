// Package nbcoin implements NB-COIN, the node-based coincidence algorithm of
// Waiyapara, Wattanapornprom and Chongstitvatana ("Solving Sudoku Puzzles
// with Node Based Coincidence Algorithm", Chulalongkorn University; the
// text in shared/papers/nb-coin-waiyapara.txt names no venue or year, and
// cites work of 2012).
//
// # The algorithm
//
// NB-COIN is an estimation of distribution algorithm over permutations
// (section III). Each box has its own N x N model M[position][symbol]
// (section IV, Fig. 7), initialised uniform ("1/n in node based
// representation", section III) over the symbols no given of the cell's
// box, row or column holds; a given has probability 1 for its symbol, and a
// cell left with one candidate has probability 1 for it (Fig. 7c). Each
// generation samples a population of grids, every box a permutation of its
// missing symbols; ranks them by the fitness of Sato and Inoue (section II,
// eq. 1: distinct symbols per row plus per column, 2N^2 when solved); and
// updates the models from the best C% of the population, rewarded by eq. 4,
// and the worst C%, punished by eq. 5 (negative correlation learning):
//
//	reward:  M[i][j] += k/L * sum_g delta_ij(s_g) - k/L^2 * sum_q sum_g delta_iq(s_g)
//	punish:  M[i][j] -= k/L * sum_b delta_ij(s_b) - k/L^2 * sum_q sum_b delta_iq(s_b)
//
// with L = N, the size of one model column, and k the learning step. The
// nine models are "co-evolved, that is, they are independently evolved, and
// at the same time, they are partially influenced by their neighborhood
// models" (section IV); parameter credit chooses how (see below). A run
// stops when a grid is solved or the budget is spent (the paper stops at
// 100,000 generations); there is no restart.
//
// The cost recorded is 2N^2 minus the fitness: the symbols missing from the
// rows and the columns. Boxes are always permutations, so this is the
// missing-symbol cost sudokulab.Missing.Total of every solver.
//
// # Choices where the paper is ambiguous
//
//   - Sampling a permutation from a node model. The paper says only that
//     solutions "are generated from this model" (section III). We follow the
//     node histogram sampling of NHBSA, which NB-COIN adopts ("adopts the node
//     based representation from NHBSA", section I): the free cells of a box are
//     visited in a random order, and each draws one of the symbols still
//     unused in its box with probability proportional to its model entries; a
//     cell whose entries are all 0 on the unused symbols draws one of them
//     uniformly. The parameter order offers two alternatives: positions 1 to
//     9 in turn (Fig. 7's numbering), or the most likely cell first, as
//     RESEDA samples a box.
//   - The size of the update. Equations 4 and 5 sum over the selected
//     solutions, so with a population of 150 and C = 25% one generation moves
//     an entry by up to 37 x k/L. learning=sum (the default) applies them as
//     written; learning=mean divides the sums by the number of solutions in
//     the group, so that k is the largest move of an entry in one
//     generation. The reproduction compares both.
//   - Which grids teach a box's model. Section IV says only that the models
//     are co-evolved, "independently evolved, and at the same time ...
//     partially influenced by their neighborhood models"; section III
//     selects "the good and the poor solutions from the population". With
//     credit=grid (the default) the population is ranked once by eq. 1 over
//     the whole grid and every model learns from the same best and worst C%.
//     With credit=box each model has its own selection: the population is
//     ranked, box by box, by eq. 1 restricted to the rows and the columns
//     that pass through the box (BoxRows rows and BoxCols columns; the box
//     itself is always a permutation), and box b's model learns only from
//     box b's best and worst C% (ties go to the earlier grid, as with
//     credit=grid). The neighbourhood's influence is that those rows and
//     columns also hold the cells of the boxes beside and above or below.
//     The paper does not say which it means. With learning=sum, credit=box
//     solves the easy puzzles of Table II in 3.0 and 3.8 generations on
//     average (the paper: 2 and 4; credit=grid: 7.5 and 106) and more of
//     the medium puzzles, but the difficult ones no more than credit=grid
//     (see docs/reproduction-reseda-nbcoin.md), so the default stays grid.
//   - The size of the groups: C% of the population, rounded down (37 of 150),
//     at least 1; the best and the worst groups have the same size, so the
//     k/L^2 terms of eq. 4 and 5 cancel.
//   - The upper bound (Table I, 0.99). Section III says the equations keep
//     "the sum of probability in each column ... equal to 1.0". After an update
//     we clip negative entries to 0, rescale the column to sum 1, and if an
//     entry exceeds the upper bound we set it to the bound and share the rest
//     (1 - bound) among the cell's other entries in proportion to them, or
//     equally among its other candidates when they are all 0. A cell keeps at
//     least 1 - bound for its other candidates, so a model never freezes; a
//     cell with a single candidate keeps probability 1.
//
// # The neighbour reading of section IV (parameter neighbour-weight)
//
// Section IV says of the nine models: "These 9 probabilistic models are
// co-evolved, that is, they are independently evolved, and at the same
// time, they are partially influenced by their neighborhood models", and of
// the givens: "The predetermined of positions in each sub-block constraints
// its neighbor sub-block ... The predetermined process is applied for all
// the sub-blocks on the left and the right, the top and the bottom
// sub-blocks." The pre-computation (parameter precompute) reads the second
// sentence for the givens only. Parameter neighbour-weight reads both for
// the grid being sampled: the boxes are drawn one after another in a random
// order (a fresh one for each grid), and when a cell draws its symbol, a
// symbol already placed in the cell's row or column, by a given or by a box
// drawn before, weighs neighbour-weight times its model entry. So the
// symbols chosen in one box constrain its neighbours, which is how we read
// "partially influenced by their neighborhood models".
//
//   - neighbour-weight=1 (the default) is the literal reading: no influence,
//     boxes drawn in order; a seed gives exactly what it gave before the
//     parameter existed (a golden test pins it).
//   - neighbour-weight=0 excludes such symbols (presets
//     nb-coin-table2-neighbour and nb-coin-table2-mean-neighbour). When every
//     symbol left to the box is excluded for a cell, the cell draws from its
//     model among them as the literal reading does (the box must be a
//     permutation); when the remaining ones have no model weight, uniformly
//     among the symbols not excluded.
//   - between 0 and 1 the symbols are down-weighted by that factor.
//
// Learning is unchanged: the models learn from the grids sampled this way.
// With prefilter ac3 or gac a box that reaches a dead end is drawn again
// with the row and column symbols it had placed taken back. The order
// parameter still orders the cells inside a box (order=greedy picks the
// cell by its model alone). This reading solves the six puzzles of Table II
// far more often than the literal one; see docs/reproduction.md.
//
// # Restarts (an extension)
//
// Parameter restart (0 by default: never, the paper's algorithm) starts a
// new attempt from the initial models once restart generations have passed
// without a grid better than the attempt's best so far; the step counts
// the restart (Step.Restarts, Result.Restarts) and the run's best grid is
// kept. The paper's failing runs wander around grids of cost 2, the
// "near-optimal solutions" of its Fig. 2; RESEDA (Maire and Prissette 2012,
// section 4) answers the same trap by restarting, and so does this option.
//
// Parameter restart-schedule makes restart the unit of a schedule instead
// of a fixed patience (package solvers/internal/restart): with luby,
// attempt a may last restart times the a-th term of the Luby sequence 1, 1,
// 2, 1, 1, 2, 4, ... generations without improving (Luby, Sinclair and
// Zuckerman 1993); with geometric, restart times restart-factor^(a-1). The
// preset nb-coin-table2-box-restart's 300 generations were picked on the
// difficult puzzles themselves; nb-coin-table2-box-luby and
// nb-coin-table2-box-geometric use a unit of 100 fixed in advance.
//
// # The AC3 prefilter (an extension)
//
// Parameter prefilter (none by default, the paper's algorithm; ac3 or gac,
// package ac3, after Soto et al. 2014 section 5) prunes the domains before
// the search. Cells it reduces to one value count as givens. Each model
// column starts uniform over the cell's pruned domain (minus the symbols the
// givens of its units hold, with the pre-computation); sampling draws each
// cell from its candidates among the box's unused symbols, and since only
// sampled symbols are rewarded, entries outside the domain stay 0 when
// learning. At a dead end (a cell none of whose candidates is unused in the
// box) the box is sampled again from the model, and after 8 dead ends in a
// row it is filled by ac3.Domains.FillUnit, a random permutation within the
// domains. (Dead ends are frequent: with the random order about 3 boxes in 9
// per grid on No77 at the first attempt, and filling them all with FillUnit,
// which ignores the model, made the search markedly worse.) A puzzle the
// prefilter proves unsolvable ends at once, unsolved, with each box filled
// as a random permutation of its missing symbols. With prefilter none a seed
// gives exactly the Result and Steps it gave before the parameter existed (a
// golden test pins them). Arc consistency on the not-equal constraints only
// removes values from the peers of single-valued cells: on a puzzle where it
// fixes no cell (Sato and Inoue No77 and No106, AI Escargot) the initial
// models equal those of the pre-computation, and runs differ from prefilter
// none only from the first dead end on.
//
// # Counters
//
// Generations count the populations sampled; evaluations count grids
// evaluated (population size per generation, fewer in the last one when a
// grid is solved or the evaluation budget ends). Restarts are 0 without
// parameter restart.
// Step.CurrentCost is the population's mean cost and Step.Convergence the
// smallest, over free cells, of the largest model entry (the analogue of
// RESEDA's rho).
//
// # Beyond 9x9
//
// The algorithm generalises to any box shape: one N x N model per box, L =
// N. Sato and Inoue's fitness counts rows and columns only, which is a
// complete cost because boxes are permutations by construction.
package nbcoin
