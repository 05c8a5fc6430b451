// Package ranking ranks many solver configurations over many puzzles as
// the benchmarking community does (Demšar, JMLR 2006; Benavoli et al.,
// JMLR 2016): each configuration gets a score per puzzle (its success
// rate, its expected running time, or its penalized average CPU time),
// the configurations are ranked within each puzzle, Friedman's test asks
// whether the mean ranks differ at all, and post-hoc tests of every pair
// (Nemenyi's on the mean ranks, and Wilcoxon's signed-rank test on the
// paired scores, Holm-adjusted) say which differences are real. Each
// configuration gets a verdict: best, tied with best, or worse than the
// best. The statistics are in package stats; Load reads the runs and
// Analyze ranks them.
package ranking

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"sudokulab"
	"sudokulab/compare"
	"sudokulab/db"
	"sudokulab/stats"
)

// Measure names the score a configuration gets on each puzzle.
type Measure string

// The measures.
const (
	// Success is the share of runs that solved the puzzle; higher is
	// better.
	Success Measure = "success"
	// ERT is the expected running time (the time of all runs over the
	// number solved, +Inf when none solved) in the time Options.Time
	// chooses; lower is better.
	ERT Measure = "ert"
	// PAR is the penalized average CPU time, PAR-k: a solved run counts
	// its CPU seconds, a run that did not solve k times the cutoff; lower
	// is better. The cutoff is the run's time budget, or for a run without
	// one the most CPU seconds any run compared spent on that puzzle.
	PAR Measure = "par"
)

// ParseMeasure returns the Measure named s, or an EINVALID error.
func ParseMeasure(s string) (Measure, error) {
	switch m := Measure(s); m {
	case Success, ERT, PAR:
		return m, nil
	}
	return "", sudokulab.Errorf(sudokulab.EINVALID, "--measure %q: want success, ert or par", s)
}

// Defaults of Options.
const (
	DefaultAlpha = 0.05
	DefaultParK  = 10
)

// CheckAlpha returns an EINVALID error unless alpha, given as --alpha, is
// a significance level: between 0 and 1.
func CheckAlpha(alpha float64) error {
	if !(alpha > 0 && alpha < 1) {
		return sudokulab.Errorf(sudokulab.EINVALID, "--alpha %v: want a number between 0 and 1, such as 0.05", alpha)
	}
	return nil
}

// CheckParK returns an EINVALID error unless k, given as --par-k, is a
// penalty factor of PAR-k: finite and at least 1.
func CheckParK(k float64) error {
	if !(k >= 1) || math.IsInf(k, 0) {
		return sudokulab.Errorf(sudokulab.EINVALID, "--par-k %v: want a number of at least 1, such as 10", k)
	}
	return nil
}

// Options choose how to rank.
type Options struct {
	// Measure is the score per puzzle; "" means ERT.
	Measure Measure
	// Time is the time ERT is measured in. "" means the solvers' effort
	// (compare.Evaluations) when the configurations count it in one unit,
	// else the time compare.TimeMeasure chooses, said in Result.Note; an
	// explicit compare.Evaluations over mixed units is refused instead.
	Time compare.Measure
	// ParK is the k of PAR-k; 0 means DefaultParK.
	ParK float64
	// Alpha is the significance level of the tests and of Nemenyi's
	// critical difference; 0 means DefaultAlpha.
	Alpha float64
}

func (o Options) withDefaults() Options {
	if o.Measure == "" {
		o.Measure = ERT
	}
	if o.ParK == 0 {
		o.ParK = DefaultParK
	}
	if o.Alpha == 0 {
		o.Alpha = DefaultAlpha
	}
	return o
}

// Run is one finished run as the ranking sees it.
type Run struct {
	Config string
	Puzzle int64
	Solved bool
	// Time is the run's time in the measure ranked (effort, CPU or
	// wall-clock seconds), NaN when not recorded; for PAR it is CPU
	// seconds.
	Time float64
	// Cutoff is the run's time budget in seconds, 0 for none (PAR only).
	Cutoff float64
}

// Entry is one configuration's place in the ranking.
type Entry struct {
	Config string
	// MeanRank is its rank averaged over the puzzles ranked (1 is best).
	MeanRank float64
	// Score is its measure over all the puzzles ranked: the pooled
	// success rate, the pooled ERT, or the mean of its PAR-k per puzzle.
	Score float64
	// Runs and Solved count its runs on the puzzles ranked.
	Runs, Solved int
	// VersusBest is the two-sided p-value of the signed-rank test of
	// this configuration's scores against the best's, adjusted by Holm's
	// method over the k-1 comparisons with the best (NaN for the best).
	VersusBest float64
	// Verdict is "best", "tied with best" or "worse than <best>".
	Verdict string
}

// Pair is the post-hoc comparison of two configurations, A ranked better
// (or equal) on the mean.
type Pair struct {
	A, B string
	// RankDiff is B's mean rank less A's, and NemenyiP its p-value by
	// Nemenyi's test.
	RankDiff, NemenyiP float64
	// Wilcoxon is the signed-rank test of A's scores against B's, paired
	// by puzzle, in the measure's "lower is better" orientation; WilcoxonHolm
	// its two-sided p-value adjusted by Holm's method over all the pairs.
	Wilcoxon     stats.SignedRankResult
	WilcoxonHolm float64
}

// Result is a ranking of configurations.
type Result struct {
	Options Options
	// Configs are the configurations ranked, in the order given.
	Configs []string
	// Unit is the unit of the scores: "evaluations", "nodes", "seconds",
	// "cpu seconds", or "" for the success rate.
	Unit string
	// Note says why the scores are not in the unit asked for, or "".
	Note string
	// Puzzles is the number of puzzles ranked: those on which every
	// configuration has a score. Incomplete counts the puzzles left out
	// because some configuration has no run (or no timed run) there.
	Puzzles, Incomplete int
	// PuzzleIDs are the puzzles ranked, by id, and Scores[i][j] is
	// configuration j's (of Configs) score on the i-th, oriented so that
	// lower is better: the success rate negated, ERT or PAR-k as they are.
	PuzzleIDs []int64
	Scores    [][]float64
	// Friedman is Friedman's test over the puzzles ranked; FF and FFP are
	// Iman and Davenport's F and its p-value.
	Friedman stats.FriedmanResult
	FF, FFP  float64
	// CD is Nemenyi's critical difference of mean ranks at Options.Alpha.
	CD float64
	// Ranking holds the configurations by mean rank, best first.
	Ranking []Entry
	// Pairs holds every pair, by the A and B of Ranking's order.
	Pairs []Pair
}

// Label names the measure with its unit, as a column or axis says it:
// "success_rate", "ert_evaluations", "par10_cpu_seconds".
func (r *Result) Label() string {
	switch r.Options.Measure {
	case Success:
		return "success_rate"
	case PAR:
		return "par" + strconv.FormatFloat(r.Options.ParK, 'g', -1, 64) + "_cpu_seconds"
	}
	return "ert_" + underscored(r.Unit)
}

func underscored(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == ' ' {
			b[i] = '_'
		}
	}
	return string(b)
}

// Analyze ranks the configurations on runs (as Load returns them,
// measured in unit). configs fixes the configurations and their order;
// runs of others are ignored.
func Analyze(runs []Run, configs []string, unit string, o Options) *Result {
	o = o.withDefaults()
	res := &Result{Options: o, Configs: slices.Clone(configs), Unit: unit}
	k := len(configs)
	index := map[string]int{}
	for i, c := range configs {
		index[c] = i
	}
	// byPuzzle[p][j] holds configuration j's runs on puzzle p.
	byPuzzle := map[int64][][]Run{}
	var ids []int64
	for _, r := range runs {
		j, ok := index[r.Config]
		if !ok {
			continue
		}
		g, seen := byPuzzle[r.Puzzle]
		if !seen {
			g = make([][]Run, k)
			ids = append(ids, r.Puzzle)
		}
		g[j] = append(g[j], r)
		byPuzzle[r.Puzzle] = g
	}
	slices.Sort(ids)
	// scores[i][j]: configuration j's score on the i-th puzzle ranked,
	// oriented so that lower is better.
	var scores [][]float64
	var kept [][][]Run
	for _, id := range ids {
		row, ok := puzzleScores(byPuzzle[id], o)
		if !ok {
			res.Incomplete++
			continue
		}
		scores = append(scores, row)
		kept = append(kept, byPuzzle[id])
		res.PuzzleIDs = append(res.PuzzleIDs, id)
	}
	res.Puzzles = len(scores)
	res.Scores = scores
	res.Friedman = stats.Friedman(scores)
	if len(res.Friedman.MeanRanks) != k { // no puzzle ranked
		res.Friedman.MeanRanks = make([]float64, k)
		for j := range res.Friedman.MeanRanks {
			res.Friedman.MeanRanks[j] = math.NaN()
		}
	}
	res.FF, res.FFP = stats.ImanDavenport(res.Friedman.Statistic, res.Friedman.Blocks, k)
	res.CD = stats.NemenyiCD(k, res.Puzzles, o.Alpha)

	order := make([]int, k)
	for j := range order {
		order[j] = j
	}
	if res.Puzzles > 0 {
		slices.SortStableFunc(order, func(a, b int) int {
			return cmpFloat(res.Friedman.MeanRanks[a], res.Friedman.MeanRanks[b])
		})
	}
	for _, j := range order {
		e := Entry{Config: configs[j], MeanRank: res.Friedman.MeanRanks[j]}
		e.Score, e.Runs, e.Solved = overall(kept, j, o)
		res.Ranking = append(res.Ranking, e)
	}
	column := func(j int) []float64 {
		col := make([]float64, len(scores))
		for i, row := range scores {
			col[i] = row[j]
		}
		return col
	}
	var ps []float64
	for a := 0; a < k; a++ {
		for b := a + 1; b < k; b++ {
			ja, jb := order[a], order[b]
			x, y := pairable(column(ja), column(jb))
			p := Pair{
				A: configs[ja], B: configs[jb],
				RankDiff: res.Friedman.MeanRanks[jb] - res.Friedman.MeanRanks[ja],
				Wilcoxon: stats.SignedRank(x, y, stats.TwoSided),
			}
			p.NemenyiP = stats.NemenyiP(p.RankDiff, k, res.Puzzles)
			res.Pairs = append(res.Pairs, p)
			ps = append(ps, p.Wilcoxon.P)
		}
	}
	for i, v := range stats.Holm(ps) {
		res.Pairs[i].WilcoxonHolm = v
	}
	res.verdicts()
	return res
}

// verdicts says of each configuration whether it is the best (the least
// mean rank), tied with it, or worse: worse when Friedman's test rejects
// equal ranks at alpha and the signed-rank test of its scores against the
// best's does too, Holm-adjusted over the k-1 comparisons with the best
// (a comparison with a control, as Demšar 2006 section 3.2.2 sets it:
// the family is the question the verdicts answer, not all k(k-1)/2
// pairs), with this configuration the one whose paired scores are the
// larger (V below its mean).
func (res *Result) verdicts() {
	if len(res.Ranking) == 0 {
		return
	}
	best := res.Ranking[0].Config
	res.Ranking[0].Verdict = "best"
	res.Ranking[0].VersusBest = math.NaN()
	// The pairs of the best come first, in ranking order.
	vs := res.Pairs[:len(res.Ranking)-1]
	ps := make([]float64, len(vs))
	for i, p := range vs {
		if p.A != best || p.B != res.Ranking[i+1].Config {
			panic("ranking: pairs out of order")
		}
		ps[i] = p.Wilcoxon.P
	}
	adjusted := stats.Holm(ps)
	rejected := res.Friedman.P < res.Options.Alpha
	for i, p := range vs {
		e := &res.Ranking[i+1]
		e.VersusBest = adjusted[i]
		e.Verdict = "tied with best"
		n := float64(p.Wilcoxon.N)
		if rejected && adjusted[i] < res.Options.Alpha && p.Wilcoxon.V < n*(n+1)/4 {
			e.Verdict = "worse than " + best
		}
	}
}

// pairable returns the paired scores of two configurations for the
// signed-rank test: where both are +Inf (neither solved) the pair is a
// tie, a zero difference, rather than the NaN Inf - Inf would give.
func pairable(x, y []float64) ([]float64, []float64) {
	x, y = slices.Clone(x), slices.Clone(y)
	for i := range x {
		if math.IsInf(x[i], 0) && x[i] == y[i] {
			x[i], y[i] = 0, 0
		}
	}
	return x, y
}

// puzzleScores returns the score of each configuration on one puzzle,
// oriented lower-is-better, and false when some configuration has none.
func puzzleScores(g [][]Run, o Options) ([]float64, bool) {
	row := make([]float64, len(g))
	cutoff := 0.0 // the most CPU seconds a run spent here, for PAR
	for _, rs := range g {
		for _, r := range rs {
			if !math.IsNaN(r.Time) {
				cutoff = math.Max(cutoff, r.Time)
			}
		}
	}
	for j, rs := range g {
		var v float64
		switch o.Measure {
		case Success:
			if len(rs) == 0 {
				return nil, false
			}
			solved := 0
			for _, r := range rs {
				if r.Solved {
					solved++
				}
			}
			v = -float64(solved) / float64(len(rs))
		case PAR:
			v = par(rs, cutoff, o.ParK)
		default:
			v = stats.ERT(timed(rs))
		}
		if math.IsNaN(v) {
			return nil, false
		}
		row[j] = v
	}
	return row, true
}

// timed returns the runs with a time, for the ERT.
func timed(rs []Run) []stats.Run {
	var out []stats.Run
	for _, r := range rs {
		if !math.IsNaN(r.Time) {
			out = append(out, stats.Run{Effort: r.Time, Solved: r.Solved})
		}
	}
	return out
}

// par returns the PAR-k of runs: the mean of the CPU seconds of the solved
// runs and k times the cutoff (the run's budget, else cutoff) of the
// others. A solved run without its CPU time is left out; NaN when no run
// counts.
func par(rs []Run, cutoff, k float64) float64 {
	var sum float64
	n := 0
	for _, r := range rs {
		switch {
		case r.Solved && math.IsNaN(r.Time):
			continue
		case r.Solved:
			sum += r.Time
		case r.Cutoff > 0:
			sum += k * r.Cutoff
		default:
			sum += k * cutoff
		}
		n++
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// overall returns configuration j's score over the puzzles kept, with its
// runs and solved runs there.
func overall(kept [][][]Run, j int, o Options) (score float64, runs, solved int) {
	var all []stats.Run
	var parSum float64
	for _, g := range kept {
		for _, r := range g[j] {
			runs++
			if r.Solved {
				solved++
			}
		}
		all = append(all, timed(g[j])...)
		if o.Measure == PAR {
			row, _ := puzzleScores(g, o)
			parSum += row[j]
		}
	}
	switch o.Measure {
	case Success:
		if runs == 0 {
			return math.NaN(), runs, solved
		}
		return float64(solved) / float64(runs), runs, solved
	case PAR:
		if len(kept) == 0 {
			return math.NaN(), runs, solved
		}
		return parSum / float64(len(kept)), runs, solved
	}
	return stats.ERT(all), runs, solved
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Columns are the columns of Table, the measure's column named by Label.
func (r *Result) Columns() []string {
	return []string{"rank", "config", "mean_rank", r.Label(), "puzzles", "runs", "solved", "p_vs_best", "verdict"}
}

// Table returns the ranking, best first: mean ranks to 4 decimals, scores
// to 6 significant digits ("inf" for an ERT without a success), p-values
// to 4.
func (r *Result) Table() db.Table {
	t := db.Table{Columns: r.Columns()}
	for i, e := range r.Ranking {
		t.Rows = append(t.Rows, []any{
			int64(i + 1), e.Config, round(e.MeanRank, 4), compare.Sig(e.Score, 6),
			int64(r.Puzzles), int64(e.Runs), int64(e.Solved), compare.Sig(e.VersusBest, 4), e.Verdict,
		})
	}
	return t
}

// PairColumns are the columns of PairTable.
var PairColumns = []string{"config_a", "config_b", "rank_diff", "nemenyi_p", "wilcoxon_v", "wilcoxon_pairs", "wilcoxon_p", "wilcoxon_p_holm"}

// PairTable returns the post-hoc comparisons, one row per pair, A the
// better ranked; p-values to 4 significant digits.
func (r *Result) PairTable() db.Table {
	t := db.Table{Columns: slices.Clone(PairColumns)}
	for _, p := range r.Pairs {
		t.Rows = append(t.Rows, []any{
			p.A, p.B, round(p.RankDiff, 4), compare.Sig(p.NemenyiP, 4),
			compare.Sig(p.Wilcoxon.V, 6), int64(p.Wilcoxon.N), compare.Sig(p.Wilcoxon.P, 4), compare.Sig(p.WilcoxonHolm, 4),
		})
	}
	return t
}

// Measure names what the configurations were ranked by, with its unit:
// "success rate", "ERT in evaluations", "PAR10 in cpu seconds".
func (r *Result) Measure() string {
	switch r.Options.Measure {
	case Success:
		return "success rate"
	case PAR:
		return "PAR" + strconv.FormatFloat(r.Options.ParK, 'g', -1, 64) + " in cpu seconds"
	}
	return "ERT in " + r.Unit
}

// Summary says in one line what was ranked and what the omnibus test
// found.
func (r *Result) Summary() string {
	s := fmt.Sprintf("%d configurations ranked by %s on %d puzzles", len(r.Configs), r.Measure(), r.Puzzles)
	if r.Incomplete > 0 {
		s += fmt.Sprintf(" (%d more left out: not every configuration has a score there)", r.Incomplete)
	}
	s += fmt.Sprintf("; Friedman chi2 = %s, df = %d, p = %s (Iman-Davenport F = %s, p = %s); Nemenyi CD = %s at alpha %g; verdicts by Wilcoxon signed-rank tests against the best, Holm-adjusted over the k-1 comparisons (p_vs_best)",
		num(r.Friedman.Statistic, 4), r.Friedman.DF, num(r.Friedman.P, 4), num(r.FF, 4), num(r.FFP, 4), num(r.CD, 4), r.Options.Alpha)
	return s
}

func num(x float64, n int) string {
	if math.IsNaN(x) {
		return "n/a"
	}
	return strconv.FormatFloat(x, 'g', n, 64)
}

// round rounds x to n decimals; NaN becomes nil.
func round(x float64, n int) any {
	if math.IsNaN(x) {
		return nil
	}
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', n, 64), 64)
	return v
}
