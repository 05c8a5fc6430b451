package report

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"sudokulab/db"
)

// Plan says how a configuration's runs in the experiment were made: their
// budgets and stopping rule, seeds, puzzles, the commands that make them
// and the code versions that did.
type Plan struct {
	// Runs and Puzzles count the configuration's runs in the experiment
	// (canceled and failed ones too) and the puzzles they were on.
	Runs, Puzzles int
	// Seeds lists the seeds as ranges ("1-5, 9"); SeedCount counts them.
	Seeds     string
	SeedCount int
	// Stop is the stopping rule: at the first solution, or when a budget
	// runs out, each distinct budget with its runs.
	Stop string
	// Ended says how the runs ended, by status.
	Ended string
	// Commands are the sudokulab run commands that make these runs, one
	// per budget and range of seeds; run again, they find them recorded.
	Commands []string
	// CodeVersions counts the runs per code version.
	CodeVersions []Count
}

// plan describes the runs of one configuration (sorted by identity).
func plan(experiment, config string, runs []run, collections []db.CollectionPuzzles) Plan {
	var p Plan
	p.Runs = len(runs)
	puzzles := map[int64]bool{}
	var seeds []int64
	type budget struct{ evals, gens, ms int64 }
	var budgets []budget
	perBudget := map[budget][]run{}
	status := map[string]int{}
	versions := map[string]*Count{}
	for _, r := range runs {
		puzzles[r.puzzle] = true
		seeds = append(seeds, r.key[0])
		bu := budget{r.key[1], r.key[2], r.key[3]}
		if _, ok := perBudget[bu]; !ok {
			budgets = append(budgets, bu)
		}
		perBudget[bu] = append(perBudget[bu], r)
		status[r.status]++
		v := cmp.Or(r.codeVersion, "(not recorded)")
		if versions[v] == nil {
			versions[v] = &Count{Value: v}
		}
		versions[v].Runs++
	}
	p.Puzzles = len(puzzles)
	slices.Sort(seeds)
	seeds = slices.Compact(seeds)
	p.SeedCount = len(seeds)
	p.Seeds = ranges(seeds)
	slices.SortFunc(budgets, func(x, y budget) int {
		return cmp.Or(cmp.Compare(x.evals, y.evals), cmp.Compare(x.gens, y.gens), cmp.Compare(x.ms, y.ms))
	})
	var limits []string
	for _, bu := range budgets {
		l := budgetText(bu.evals, bu.gens, bu.ms)
		if len(budgets) > 1 {
			l += fmt.Sprintf(" (%d runs)", len(perBudget[bu]))
		}
		limits = append(limits, l)
		p.Commands = append(p.Commands, commands(experiment, config, bu.evals, bu.gens, bu.ms, perBudget[bu], collections)...)
	}
	switch {
	case len(budgets) == 1 && budgets[0] == (budget{}):
		p.Stop = "only at its first solution (best cost 0): no budget was set"
	case len(budgets) == 1:
		p.Stop = "at its first solution (best cost 0), or when it has spent " + limits[0]
	default:
		p.Stop = "at its first solution (best cost 0), or when it has spent its budget, which differs between runs: " + strings.Join(limits, "; ")
	}
	var ended []string
	for _, s := range []struct{ status, what string }{
		{"solved", "solved"}, {"unsolved", "unsolved (budget spent)"}, {"timeout", "stopped by the time limit"},
		{"canceled", "canceled"}, {"error", "failed with an error"},
	} {
		if n := status[s.status]; n > 0 {
			ended = append(ended, fmt.Sprintf("%d %s", n, s.what))
		}
	}
	p.Ended = strings.Join(ended, ", ")
	for _, c := range versions {
		p.CodeVersions = append(p.CodeVersions, *c)
	}
	slices.SortFunc(p.CodeVersions, func(x, y Count) int { return cmp.Or(cmp.Compare(y.Runs, x.Runs), strings.Compare(x.Value, y.Value)) })
	return p
}

// budgetText writes a budget: the limits a run stops at, whichever comes
// first.
func budgetText(evals, gens, ms int64) string {
	var parts []string
	if evals > 0 {
		parts = append(parts, fmt.Sprintf("%d evaluations", evals))
	}
	if gens > 0 {
		parts = append(parts, fmt.Sprintf("%d generations", gens))
	}
	if ms > 0 {
		parts = append(parts, (time.Duration(ms)*time.Millisecond).String()+" of wall-clock time")
	}
	switch len(parts) {
	case 0:
		return "none"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1] + ", whichever comes first"
}

// commands returns the sudokulab run commands that make runs (of one
// configuration and budget): one per contiguous range of seeds, on the
// puzzles of those runs, named by a collection when they are exactly its
// puzzles.
func commands(experiment, config string, evals, gens, ms int64, runs []run, collections []db.CollectionPuzzles) []string {
	var seeds []int64
	for _, r := range runs {
		seeds = append(seeds, r.key[0])
	}
	slices.Sort(seeds)
	seeds = slices.Compact(seeds)
	var out []string
	for _, rg := range seedRanges(seeds) {
		puzzles := map[int64]bool{}
		n := 0
		for _, r := range runs {
			if r.key[0] >= rg[0] && r.key[0] <= rg[1] {
				puzzles[r.puzzle] = true
				n++
			}
		}
		cmd := []string{"sudokulab", "run", "--experiment", quote(experiment), "--config", quote(config), puzzleFlag(puzzles, collections)}
		if rg[0] != 1 {
			cmd = append(cmd, "--seed", strconv.FormatInt(rg[0], 10))
		}
		if k := rg[1] - rg[0] + 1; k != 1 {
			cmd = append(cmd, "--runs", strconv.FormatInt(k, 10))
		}
		if evals > 0 {
			cmd = append(cmd, "--max-evaluations", strconv.FormatInt(evals, 10))
		}
		if gens > 0 {
			cmd = append(cmd, "--max-generations", strconv.FormatInt(gens, 10))
		}
		if ms > 0 {
			cmd = append(cmd, "--timeout", (time.Duration(ms) * time.Millisecond).String())
		}
		line := strings.Join(cmd, " ")
		if full := int64(len(puzzles)) * (rg[1] - rg[0] + 1); int64(n) < full {
			line += fmt.Sprintf("   # plans %d runs, of which the experiment holds %d", full, n)
		}
		out = append(out, line)
	}
	return out
}

// puzzleFlag chooses puzzles: --collection when they are exactly one
// collection's, else --where with their ids.
func puzzleFlag(puzzles map[int64]bool, collections []db.CollectionPuzzles) string {
	for _, c := range collections {
		if c.Size == len(puzzles) && len(c.Puzzles) == len(puzzles) {
			return "--collection " + quote(c.Name)
		}
	}
	ids := make([]int64, 0, len(puzzles))
	for id := range puzzles {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return `--where "id IN (` + strings.Join(parts, ", ") + `)"`
}

// quote quotes a word for a POSIX shell when it needs it.
func quote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.,/:+=@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// seedRanges splits sorted distinct seeds into contiguous ranges.
func seedRanges(seeds []int64) [][2]int64 {
	var out [][2]int64
	for _, s := range seeds {
		if n := len(out); n > 0 && out[n-1][1]+1 == s {
			out[n-1][1] = s
			continue
		}
		out = append(out, [2]int64{s, s})
	}
	return out
}

// ranges writes sorted distinct seeds as ranges: "1-5, 9".
func ranges(seeds []int64) string {
	var parts []string
	for _, rg := range seedRanges(seeds) {
		if rg[0] == rg[1] {
			parts = append(parts, strconv.FormatInt(rg[0], 10))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", rg[0], rg[1]))
		}
	}
	return strings.Join(parts, ", ")
}
