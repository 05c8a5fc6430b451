package ranking

import (
	"context"
	"fmt"
	"math"
	"slices"

	"sudokulab"
	"sudokulab/compare"
	"sudokulab/db"
)

// Compute reads the runs sel chooses from d and ranks their
// configurations: those sel.Configs names, in that order, or without any
// every configuration with runs in the selection (of the experiment, or
// of the whole lab), by name.
func Compute(ctx context.Context, d *db.DB, sel db.RunSelection, o Options) (*Result, error) {
	runs, configs, unit, note, err := Load(ctx, d, sel, o)
	if err != nil {
		return nil, err
	}
	res := Analyze(runs, configs, unit, o)
	res.Note = note
	if res.Puzzles == 0 {
		return nil, sudokulab.Errorf(sudokulab.ENOTFOUND, "compare: no puzzle has a score of every one of the %d configurations (%d puzzles, each missing some): choose configurations run on the same puzzles (--config, --where)",
			len(configs), res.Incomplete)
	}
	return res, nil
}

// Load reads the finished runs sel chooses, with their time in the
// measure o asks for, and returns them with the configurations to rank
// and the unit of their scores. Fewer than two configurations, or one of
// them without a run, is an EINVALID or ENOTFOUND error. An ERT in effort
// over configurations that count effort in different units (nodes and
// evaluations) is measured in the time compare.TimeMeasure chooses when
// o.Time is "", with a note saying why, and is the EINVALID error compare
// gives, naming --time cpu and --time seconds, when o.Time asks for
// compare.Evaluations.
func Load(ctx context.Context, d *db.DB, sel db.RunSelection, o Options) (runs []Run, configs []string, unit, note string, err error) {
	o = o.withDefaults()
	timeAsked := o.Time != ""
	if !timeAsked {
		o.Time = compare.Evaluations
	}
	if len(sel.Configs) == 1 {
		return nil, nil, "", "", sudokulab.Errorf(sudokulab.EINVALID, "compare needs --config twice or more (or none, with --experiment: all of its configurations), got 1")
	}
	for i, c := range sel.Configs {
		if slices.Contains(sel.Configs[:i], c) {
			return nil, nil, "", "", sudokulab.Errorf(sudokulab.EINVALID, "compare: --config %s twice: name different configurations", c)
		}
	}
	read, err := d.RankingRuns(ctx, sel)
	if err != nil {
		return nil, nil, "", "", fmt.Errorf("compare: %w", err)
	}
	configs = slices.Clone(sel.Configs)
	units := map[string]string{}
	allCPU := len(read) > 0
	for _, r := range read {
		allCPU = allCPU && r.CPU != nil
		if _, ok := units[r.Config]; !ok {
			units[r.Config] = r.EffortUnit
			if len(sel.Configs) == 0 {
				configs = append(configs, r.Config) // read by name
			}
		}
	}
	for _, c := range configs {
		if _, ok := units[c]; !ok {
			return nil, nil, "", "", sudokulab.Errorf(sudokulab.ENOTFOUND, "compare: no finished runs of %s on the puzzles chosen (--experiment %q --where %q)", c, sel.Experiment, sel.Where)
		}
	}
	if len(configs) < 2 {
		return nil, nil, "", "", sudokulab.Errorf(sudokulab.EINVALID, "compare: the runs chosen (--experiment %q --where %q) are of %d configuration(s): nothing to rank", sel.Experiment, sel.Where, len(configs))
	}
	switch {
	case o.Measure == Success:
	case o.Measure == PAR:
		unit = compare.UnitOf(compare.CPU)
	case o.Time == compare.Evaluations:
		cu := make([]compare.ConfigUnit, len(configs))
		for i, c := range configs {
			cu[i] = compare.ConfigUnit{Config: c, Unit: units[c]}
		}
		var mixed *compare.Mixed
		unit, mixed = compare.EffortUnit(cu)
		if mixed != nil && timeAsked {
			return nil, nil, "", "", fmt.Errorf("compare: %w", mixed.Err("--time cpu", "--time seconds"))
		}
		if mixed != nil {
			o.Time = compare.TimeMeasure(allCPU)
			unit = compare.UnitOf(o.Time)
			note = fmt.Sprintf("in %s: %s", unit, mixed)
		}
	default:
		unit = compare.UnitOf(o.Time)
	}
	runs = make([]Run, len(read))
	for i, r := range read {
		v := r.Effort
		switch {
		case o.Measure == PAR || o.Time == compare.CPU:
			v = r.CPU
		case o.Time == compare.Seconds:
			v = r.Wall
		}
		t := math.NaN()
		if v != nil {
			t = *v
		}
		runs[i] = Run{Config: r.Config, Puzzle: r.Puzzle, Solved: r.Solved, Time: t, Cutoff: r.TimeoutSeconds}
	}
	return runs, configs, unit, note, nil
}
