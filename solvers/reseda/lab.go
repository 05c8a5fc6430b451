package reseda

import (
	"fmt"
	"math"

	"sudokulab"
	"sudokulab/solvers/ac3"
)

// The parameter names.
const (
	ParamSamples          = "samples"
	ParamBest             = "best"
	ParamAlpha            = "alpha"
	ParamBeta             = "beta"
	ParamPrecompute       = "precompute"
	ParamPermutations     = "permutations"
	ParamSelection        = "selection"
	ParamZones            = "zones"
	ParamAttempts         = "attempts"
	ParamBruteForce       = "brute-force"
	ParamBlockPermutation = "block-permutation"
)

// The values of the zones parameter: which zones partial restarts fix.
const (
	ZonesNone     = "none"     // no partial restart: full restarts only
	ZonesDiagonal = "diagonal" // the boxes on the first diagonal (3 for 9x9)
	ZonesBoxes    = "boxes"    // every box (9 for 9x9)
	ZonesUnits    = "units"    // every row, column and box (27 for 9x9)
)

// The values of the selection parameter.
const (
	SelectSort   = "sort"   // the Q1 lowest-cost samples
	SelectGroups = "groups" // the best of each of Q1 groups of Q/Q1 samples
)

// EscargotBlockPermutation is the position, in the lexicographic order of
// the 24 admissible permutations of AI Escargot's top-left box, of the one
// in its solution (a test checks it). The preset reseda-sec5.2-fixed-block
// fixes it, to measure the success rate of section 5.2 "when it is correctly
// guessed".
const EscargotBlockPermutation = 16

// Info describes RESEDA for the solver registry.
func Info() sudokulab.SolverInfo {
	return sudokulab.SolverInfo{
		Name:     "reseda",
		Summary:  "restarted estimation of distribution algorithm: per-cell symbol probabilities learnt from the best sampled grids, with partial restarts on zones of a converged grid",
		Counting: "evaluation: a sampled grid (Q per EDA step) and the first filled grid; generation: an EDA step over all resolutions; restart: a resolution after the first, partial or full",
		Paper:    "S. Maire and C. Prissette, A restarted estimation of distribution algorithm for solving sudoku puzzles, Statistics and Computing, 2012 (HAL inria-00591852)",
		Params:   params(),
		Presets:  presets(),
		New:      newSolver,
	}
}

func params() []sudokulab.ParamSpec {
	return []sudokulab.ParamSpec{
		{Name: ParamSamples, Kind: sudokulab.ParamInt, Default: int64(100), Min: 1, Max: 1e6,
			Doc: "Q, grids sampled per step", Section: "RESEDA §2.2, §3.1"},
		{Name: ParamBest, Kind: sudokulab.ParamInt, Default: int64(10), Min: 1, Max: 1e6,
			Doc: "Q1, best samples the probabilities learn from (at most Q)", Section: "RESEDA §2.2, §3.1"},
		{Name: ParamAlpha, Kind: sudokulab.ParamFloat, Default: 0.7, Min: 0, Max: 1,
			Doc: "smoothing: fraction of the probabilities kept from one step to the next", Section: "RESEDA §2.2, §3.2"},
		{Name: ParamBeta, Kind: sudokulab.ParamFloat, Default: 0.6, Min: 0, Max: 1,
			Doc: "a resolution stops when rho (min over cells of max over symbols of p) exceeds beta", Section: "RESEDA §2.3, §3.1"},
		{Name: ParamPrecompute, Kind: sudokulab.ParamBool, Default: true,
			Doc: "start each free cell uniform over the symbols no given of its row, column or box holds", Section: "RESEDA §2.1, §3.1"},
		{Name: ParamPermutations, Kind: sudokulab.ParamBool, Default: true,
			Doc: "sample each box as a permutation, highest-probability cell first", Section: "RESEDA §3.1"},
		{Name: ParamSelection, Kind: sudokulab.ParamChoice, Default: SelectSort, Choices: []string{SelectSort, SelectGroups},
			Doc: "keep the Q1 lowest-cost samples (sort) or the best of each of Q1 groups of Q/Q1 (groups)", Section: "RESEDA §2.2"},
		{Name: ParamZones, Kind: sudokulab.ParamChoice, Default: ZonesDiagonal, Choices: []string{ZonesNone, ZonesDiagonal, ZonesBoxes, ZonesUnits},
			Doc: "zones partial restarts fix one at a time: none, diagonal boxes (3), boxes (9), rows+columns+boxes (27)", Section: "RESEDA §4.2, §5.1"},
		{Name: ParamAttempts, Kind: sudokulab.ParamInt, Default: int64(0), Min: 0, Max: math.MaxInt64,
			Doc: "attempts (a resolution and its partial restarts) before giving up; 0 = full restarts until the budget ends", Section: "RESEDA §2.3, §4.2"},
		{Name: ParamBruteForce, Kind: sudokulab.ParamBool, Default: false,
			Doc: "fix each admissible permutation of the top-left box in turn, one attempt each", Section: "RESEDA §5.2"},
		{Name: ParamBlockPermutation, Kind: sudokulab.ParamInt, Default: int64(0), Min: 0, Max: MaxBlockPermutations,
			Doc: "with brute-force: 0 cycles through the admissible permutations; k fixes the k-th in lexicographic order", Section: "RESEDA §5.2"},
		ac3.Param(ac3.None, "RESEDA §2.1 pre-computation, generalised (extension: Soto et al. 2014 §5)"),
		ac3.PropagateParam("while a sample is drawn: each cell drawn from its probabilities is fixed and propagated, and the cells after it draw only from the candidates left (the free cell with the highest renormalised probability goes first, as in section 3.1, so cells propagation fixes go next); a cell left with no candidate, or with no probability on its candidates, ends propagation for the rest of that sample, which is then drawn as without it"),
	}
}

// presets are the settings of the paper's experiments. Presets must not
// share parameters (a configuration is its settings), so one preset serves
// every table that uses its settings, as its description says.
func presets() []sudokulab.Preset {
	var ps []sudokulab.Preset
	oneShot := func(set map[string]string) map[string]string {
		set[ParamZones] = ZonesNone
		set[ParamAttempts] = "1"
		return set
	}
	alphas := []string{"0.99", "0.9", "0.7", "0.5"}
	for _, a := range alphas {
		desc := "Table 1 (easy puzzle), both optimizations, alpha " + a + ", one resolution without restart"
		if a == "0.7" {
			desc += "; also Table 2 (medium puzzle) and the no-restart row of Table 3 (hard puzzle)"
		} else {
			desc += "; also Table 2 (medium puzzle)"
		}
		ps = append(ps, sudokulab.Preset{Name: "reseda-table1-both-a" + a, Description: desc,
			Set: oneShot(map[string]string{ParamAlpha: a})})
	}
	for _, a := range alphas {
		ps = append(ps, sudokulab.Preset{Name: "reseda-table1-perm-a" + a,
			Description: "Table 1 (easy puzzle), permutations only (no pre-computation), alpha " + a + ", one resolution",
			Set:         oneShot(map[string]string{ParamAlpha: a, ParamPrecompute: "false"})})
	}
	for _, a := range alphas {
		ps = append(ps, sudokulab.Preset{Name: "reseda-table1-precomp-a" + a,
			Description: "Table 1 (easy puzzle), pre-computation only (cells sampled independently), alpha " + a + ", one resolution",
			Set:         oneShot(map[string]string{ParamAlpha: a, ParamPermutations: "false"})})
	}
	for _, a := range []string{"0.3", "0.1"} {
		ps = append(ps, sudokulab.Preset{Name: "reseda-table2-a" + a,
			Description: "Table 2 (medium puzzle), alpha " + a + ", one resolution without restart",
			Set:         oneShot(map[string]string{ParamAlpha: a})})
	}
	for _, z := range []struct{ n, zones string }{{"3", ZonesDiagonal}, {"9", ZonesBoxes}, {"27", ZonesUnits}} {
		ps = append(ps, sudokulab.Preset{Name: "reseda-table3-zones" + z.n,
			Description: fmt.Sprintf("Table 3 (hard puzzle), one attempt with partial restarts on 1 zone out of %s; also Table 5 (AI Escargot)", z.n),
			Set:         map[string]string{ParamZones: z.zones, ParamAttempts: "1"}})
	}
	ps = append(ps,
		sudokulab.Preset{Name: "reseda-sec5.1-recommended",
			Description: "section 5.1's recommendation: partial restarts on the 3 diagonal boxes, then full restarts until solved or out of budget",
			Set:         map[string]string{}},
		sudokulab.Preset{Name: "reseda-sec5.2-fixed-block",
			Description: fmt.Sprintf("section 5.2, AI Escargot only: its right top-left permutation (number %d of 24) fixed, 27 zones, one attempt", EscargotBlockPermutation),
			Set: map[string]string{ParamZones: ZonesUnits, ParamAttempts: "1", ParamBruteForce: "true",
				ParamBlockPermutation: fmt.Sprint(EscargotBlockPermutation)}},
		sudokulab.Preset{Name: "reseda-sec5.2-brute-force",
			Description: "section 5.2: one attempt with 27 zones per admissible permutation of the top-left box, cycling until solved (time to success)",
			Set:         map[string]string{ParamZones: ZonesUnits, ParamBruteForce: "true"}},
	)
	// The AC3 prefilter (an extension, Soto et al. 2014 §5) on the main
	// settings, to measure its effect one parameter away.
	ps = derive(ps, []string{"reseda-table1-both-a0.7", "reseda-table3-zones3", "reseda-table3-zones27", "reseda-sec5.1-recommended", "reseda-sec5.2-brute-force"},
		"-ac3", ac3.ParamName, ac3.AC3, "after the AC3 prefilter (initialization and sampling within the pruned domains)")
	// Propagation inside the sampling (the shared propagate setting), on
	// the settings of section 5.1 and 5.2.
	ps = derive(ps, []string{"reseda-sec5.1-recommended", "reseda-sec5.2-brute-force"},
		"-propagate", ac3.PropagateParamName, ac3.PropagateHidden, "each sampled cell propagated (naked and hidden singles), the next cells drawn from what is left")
	return ps
}

// derive appends to ps, for each preset named in bases, a preset called
// its name and suffix with parameter param set to value, its description
// extended by what.
func derive(ps []sudokulab.Preset, bases []string, suffix, param, value, what string) []sudokulab.Preset {
	for _, base := range bases {
		for _, p := range ps {
			if p.Name != base {
				continue
			}
			set := map[string]string{param: value}
			for k, v := range p.Set {
				set[k] = v
			}
			ps = append(ps, sudokulab.Preset{Name: base + suffix, Description: p.Description + "; " + what, Set: set})
			break
		}
	}
	return ps
}

// settings are the resolved parameters.
type settings struct {
	samples, best int
	alpha, beta   float64
	precompute    bool
	permutations  bool
	groups        bool
	zones         string
	attempts      int64
	bruteForce    bool
	blockPerm     int
	prefilter     string
	propagate     string
}

func newSolver(p sudokulab.Params) (sudokulab.Solver, error) {
	s := settings{
		samples:      int(p.Int(ParamSamples)),
		best:         int(p.Int(ParamBest)),
		alpha:        p.Float(ParamAlpha),
		beta:         p.Float(ParamBeta),
		precompute:   p.Bool(ParamPrecompute),
		permutations: p.Bool(ParamPermutations),
		groups:       p.String(ParamSelection) == SelectGroups,
		zones:        p.String(ParamZones),
		attempts:     p.Int(ParamAttempts),
		bruteForce:   p.Bool(ParamBruteForce),
		blockPerm:    int(p.Int(ParamBlockPermutation)),
		prefilter:    p.String(ac3.ParamName),
		propagate:    p.String(ac3.PropagateParamName),
	}
	if s.best > s.samples {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "reseda: best (Q1 = %d) cannot exceed samples (Q = %d)", s.best, s.samples)
	}
	if s.blockPerm > 0 && !s.bruteForce {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "reseda: block-permutation needs brute-force=true")
	}
	return &solver{set: s}, nil
}
