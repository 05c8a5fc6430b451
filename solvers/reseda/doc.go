// Package reseda implements RESEDA, the restarted estimation of distribution
// algorithm of Maire and Prissette ("A restarted estimation of distribution
// algorithm for solving sudoku puzzles", Statistics and Computing, 2012;
// HAL inria-00591852).
//
// # The algorithm
//
// RESEDA keeps a probability p(i,k) for every cell i and symbol k (section
// 2.1). Givens have probability 1 for their symbol. With the pre-computation
// of section 2.1 a free cell is uniform over the symbols that no given of its
// row, column or box holds; without it, uniform over all symbols. Each step
// (a generation here, a "round" or "iteration" in the paper) draws Q grids
// from p, keeps the Q1 of lowest cost, and moves p towards their empirical
// distribution r: p <- alpha*p + (1-alpha)*r (section 2.2). The cost is the
// number of symbols missing from the rows, columns and boxes
// (sudokulab.Missing.Total). A resolution ends when a sample costs 0, or when
// rho = min over cells of max over symbols of p exceeds beta (section 2.3).
//
// Grids are drawn cell by cell (univariate) or, with the permutation
// sampling of section 3.1, box by box: "first pick a symbol in the cell
// having the highest probability", remove it from the other cells of the box,
// renormalise, repeat. The paper compares the pre-computation alone, the
// permutations alone and both (Table 1); both are parameters here.
//
// Q1 best samples are kept either by sorting (the default; "keep the Q1 with
// lowest cost function using insertion") or by taking the best of each of Q1
// groups of Q/Q1 samples, the cheaper alternative section 2.2 mentions.
//
// # Restarts
//
// A resolution that converges without solving is followed by partial
// restarts (section 4.2): the grid the first resolution ended with gives
// zones (a row, a column or a box), and each zone that is a permutation is
// added to the givens for one new resolution, one zone at a time. The zones
// are the boxes on the first diagonal (3 for 9x9, "1 zone out of 3"), all
// boxes (9) or all rows, columns and boxes (27). When no partial restart
// solves the puzzle, the attempt ends and the next attempt is a full restart
// from the givens (section 4.2: "If the algorithm does not converge after
// trying each of these 3 blocks, then we do a full restart").
//
// Section 5.2 couples RESEDA with brute force for AI Escargot: every
// admissible permutation of the top-left box (one that breaks no rule with
// the givens) is added to the givens in turn, one attempt per permutation.
//
// # Choices where the paper is ambiguous
//
//   - The grid the zones come from. Section 4.2 builds the restart "in adding
//     to the initial fixed cells columns, rows or blocks obtained after a first
//     resolution of the algorithm". We take the lowest-cost grid the first
//     resolution sampled (the latest one among equals, so that it reflects the
//     converged distribution).
//   - What one zone keeps. "There are 27 ways to complete the initial puzzle if
//     we add one zone at a time": a zone keeps all N cells of one row, column
//     or box of that grid, and is skipped when it is not a permutation ("while
//     discarding obviously any of them which is not a permutation") or when all
//     its cells are fixed already (it would add nothing). Zones are tried in
//     the order rows, columns, boxes; the partial restarts of one attempt all
//     use the zones of its first resolution, never of a partial restart.
//   - The partial-restart schedule. One attempt is the first resolution followed
//     by one partial restart per valid zone, stopping at the first success;
//     then a full restart begins the next attempt (sections 4.2 and 5.1). The
//     parameter attempts limits the attempts, so that attempts=1 measures the
//     paper's per-attempt success rates and times.
//   - Permutation sampling. The cell "having the highest probability" is the
//     free cell whose largest probability, renormalised over the symbols still
//     unused in the box, is highest; its symbol is drawn from that
//     renormalised distribution. When every remaining cell gives probability 0
//     to every unused symbol, "we just pick the remaining symbols uniformly at
//     random": with the permutation sampling alone the unused symbols are dealt
//     to the remaining cells in a uniformly random order (the box stays a
//     permutation); with both optimizations each remaining cell draws from its
//     own distribution, which honours the givens but may repeat a symbol, as
//     section 3.1 says ("This may increase the number of blocks that are not
//     permutations").
//   - The brute-force hybrid. Section 5.2 runs "the algorithm considering as
//     fixed each of the admissible permutations of a given 3x3 block" and
//     estimates the mean time to success as 24 x 1.517 s / 0.58, which is one
//     attempt per permutation, repeated. We enumerate the admissible
//     permutations in lexicographic order (cells row by row, symbols
//     ascending), visit them in an order shuffled afresh from the rng at the
//     start of every cycle, and give each one attempt with the zone restarts
//     chosen by the zones parameter (the paper recommends all 27 zones for AI
//     Escargot). block-permutation=k fixes the k-th permutation instead, to
//     measure the paper's "when it is correctly guessed" success rate. A
//     puzzle whose top-left box has no admissible permutation has no
//     solution; RESEDA then runs without brute force.
//   - A cell whose symbols are all excluded by the givens (a puzzle without
//     solution, or a partial restart whose zone contradicts the givens) is
//     given the uniform distribution over all symbols.
//
// # The AC3 prefilter (an extension)
//
// Parameter prefilter (none by default, the paper's algorithm; ac3 or gac,
// package ac3, after Soto et al. 2014 section 5) prunes the domains before
// the search, and generalises the pre-computation of section 2.1 from the
// givens to arc consistency. Cells it reduces to one value count as givens
// (they are fixed in every resolution and do not enter rho). A free cell
// starts uniform over its pruned domain (minus the symbols the fixed cells
// of its units hold, with the pre-computation), in the first resolution and
// in every restart (uniform over the whole domain when a restart's fixed
// cells exclude all of it, where prefilter none takes every symbol), and its
// probabilities stay 0 outside the domain, so permutation sampling draws
// each cell from domain and unused symbols. At a dead end of permutation
// sampling the remaining cells draw from their own domains: from their
// distribution with both optimizations, as above; uniformly among the unused
// symbols of their domain with the permutations alone (any symbol of the
// domain if none is left). The brute-force hybrid enumerates only the
// permutations within the domains. A puzzle the prefilter proves unsolvable
// ends at once, unsolved, with each box filled as a random permutation of
// its missing symbols. With prefilter none a seed gives exactly the Result
// and Steps it gave before the parameter existed (a golden test pins them).
// Arc consistency on the not-equal constraints only removes values from the
// peers of single-valued cells: on a puzzle where it fixes no cell (AI
// Escargot, Sato and Inoue No77 and No106) it removes exactly the symbols
// the givens exclude, and with the pre-computation on a first resolution
// runs as with prefilter none.
//
// # Counters
//
// Generations count EDA steps over all resolutions of a run; evaluations
// count sampled grids (Q per step, fewer in a step cut short by a solution or
// by the evaluation budget); restarts count the resolutions after the first,
// partial and full. Each step reports rho (after the step's update) as
// Step.Convergence and the mean cost of the step's samples as
// Step.CurrentCost.
//
// # Beyond 9x9
//
// Everything generalises to any box shape: the cost, the pre-computation,
// the permutation sampling per box and the zones. "The boxes on the first
// diagonal" are the boxes in the same band and stack, min(N/BoxRows,
// N/BoxCols) of them (3 for 9x9, 2 for 6x6 with 2x3 boxes). The brute-force
// hybrid enumerates the admissible permutations of the top-left box, which
// for a large box with few givens can be far too many: Solve returns an error
// above MaxBlockPermutations.
package reseda
