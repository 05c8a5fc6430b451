package figures

import (
	"context"
	"math"
	"slices"
	"strings"

	"sudokulab/db"
	"sudokulab/plots"
)

// Success draws the success rate of each selected configuration per
// group: the labels of s.Rater (s.By label; by collection when no puzzle
// has one), the collections (collection), or one group (all).
func Success(ctx context.Context, d *db.DB, s Spec) (Drawn, error) {
	sel := s.Selection
	totals, err := d.SuccessTotals(ctx, sel)
	if err != nil {
		return Drawn{}, readErr("success", err)
	}
	if len(totals) == 0 {
		return Drawn{}, noRuns(sel, "runs")
	}
	by := s.By
	var counts []db.SuccessCount
	groupBy := ""
	if by == "label" {
		if counts, err = d.SuccessByLabel(ctx, sel, s.Rater); err != nil {
			return Drawn{}, readErr("success", err)
		}
		groupBy = s.Rater + " label"
		labelled := slices.ContainsFunc(counts, func(c db.SuccessCount) bool { return c.Group != "(no label)" })
		if !labelled {
			by = "collection"
		}
	}
	switch by {
	case "collection":
		counts, err = d.SuccessByCollection(ctx, sel)
		groupBy = "collection"
	case "all":
		counts = nil
		for _, c := range totals {
			c.Group = "all runs"
			counts = append(counts, c)
		}
		groupBy = "configuration"
	}
	if err != nil {
		return Drawn{}, readErr("success", err)
	}
	if len(counts) == 0 {
		return Drawn{}, noRuns(sel, "runs")
	}
	var names []string
	for _, c := range totals {
		names = append(names, c.Config)
	}
	configOrder(sel.Configs, names)
	fig, err := plots.Success(successBars(names, groupBy, totals, counts), s.Options)
	return Drawn{Figure: fig}, err
}

// successGroups returns the groups of counts in the order drawn: labels
// by their level, then by their mean rating, then by name; "(no label)"
// and "(none)" last.
func successGroups(counts []db.SuccessCount) []string {
	type group struct {
		name          string
		level, value  float64
		runs          float64
		hasL, hasV, z bool
	}
	var groups []group
	for _, c := range counts {
		i := slices.IndexFunc(groups, func(g group) bool { return g.name == c.Group })
		if i < 0 {
			groups = append(groups, group{name: c.Group, z: strings.HasPrefix(c.Group, "(")})
			i = len(groups) - 1
		}
		g := &groups[i]
		if !math.IsNaN(c.Level) {
			g.level, g.hasL = c.Level, true
		}
		if !math.IsNaN(c.Value) {
			n := float64(c.Runs)
			g.value = (g.value*g.runs + c.Value*n) / (g.runs + n)
			g.runs += n
			g.hasV = true
		}
	}
	slices.SortStableFunc(groups, func(a, b group) int {
		switch {
		case a.z != b.z:
			return map[bool]int{true: 1, false: -1}[a.z]
		case a.hasL && b.hasL && a.level != b.level:
			return cmpFloat(a.level, b.level)
		case a.hasL != b.hasL:
			return map[bool]int{true: -1, false: 1}[a.hasL]
		case a.hasV && b.hasV && a.value != b.value:
			return cmpFloat(a.value, b.value)
		}
		return strings.Compare(a.name, b.name)
	})
	out := make([]string, len(groups))
	for i, g := range groups {
		out[i] = g.name
	}
	return out
}

// successBars lays the counts out as bars: one row per configuration of
// names, one column per group.
func successBars(names []string, groupBy string, totals, counts []db.SuccessCount) plots.Bars {
	bars := plots.Bars{Configs: names, GroupBy: groupBy, Groups: successGroups(counts)}
	bars.Solved = make([][]int, len(names))
	bars.Runs = make([][]int, len(names))
	bars.TotalSolved = make([]int, len(names))
	bars.TotalRuns = make([]int, len(names))
	for i := range names {
		bars.Solved[i] = make([]int, len(bars.Groups))
		bars.Runs[i] = make([]int, len(bars.Groups))
	}
	for _, c := range totals {
		i := slices.Index(names, c.Config)
		bars.TotalRuns[i], bars.TotalSolved[i] = c.Runs, c.Solved
	}
	for _, c := range counts {
		i := slices.Index(names, c.Config)
		j := slices.Index(bars.Groups, c.Group)
		bars.Runs[i][j], bars.Solved[i][j] = c.Runs, c.Solved
	}
	return bars
}

func cmpFloat(a, b float64) int {
	if a < b {
		return -1
	}
	return 1
}
