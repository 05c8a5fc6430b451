// Package irace writes a tuning's space and scenario in the files of the
// irace package (López-Ibáñez et al. 2016; the irace user guide, sections
// "Target algorithm parameters" and "Scenario options"), so that irace
// itself can tune the same space on the same instances with the same
// budget: parameters.txt, configurations.txt (the first candidate),
// instances.txt, scenario.txt and a target-runner script that does one run
// through sudokulab and prints its cost.
package irace

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"sudokulab/internal/shell"
	"sudokulab/tune"
)

// Export is what the files describe.
type Export struct {
	Space tune.Space
	// Instances are the training puzzles' ids, one irace instance each.
	Instances []int64
	// Budget is irace's maxExperiments; Seed its seed.
	Budget int
	Seed   uint64
	// Sudokulab is the program with its global flags (--db); Run the
	// arguments of one run without the puzzle, seed and tuned parameters:
	// run, --solver, the fixed --set flags, the run budget and the
	// experiment.
	Sudokulab, Run []string
	// Cost is the SQL expression over run_results giving a run's cost.
	Cost string
	// Budget of each run, for finding the run's row again.
	MaxEvaluations, MaxGenerations, TimeoutMS int64
}

// Write writes the files into dir, creating it.
func Write(dir string, e Export) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := []struct {
		name, text string
		mode       os.FileMode
	}{
		{"parameters.txt", Parameters(e.Space), 0o644},
		{"configurations.txt", Configurations(e.Space), 0o644},
		{"instances.txt", instances(e.Instances), 0o644},
		{"scenario.txt", scenario(e), 0o644},
		{"target-runner", targetRunner(e), 0o755},
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.name), []byte(f.text), f.mode); err != nil {
			return err
		}
	}
	return nil
}

// Parameters returns the space in irace's parameters.txt syntax: one line
// per tuned parameter with its name, its switch ("--set name=", which the
// target runner passes on to sudokulab run), its type (i, r, c; ",log" for
// the log scale) and its range or values.
func Parameters(s tune.Space) string {
	var b strings.Builder
	b.WriteString("# name\tswitch\ttype\trange\n")
	for _, p := range s.Params {
		sw := strconv.Quote("--set " + p.Name + "=")
		switch p.Kind {
		case tune.Categorical:
			q := make([]string, len(p.Choices))
			for i, c := range p.Choices {
				q[i] = strconv.Quote(c)
			}
			fmt.Fprintf(&b, "%s\t%s\tc\t(%s)\n", name(p), sw, strings.Join(q, ", "))
		default:
			t := "i"
			if p.Kind == tune.Real {
				t = "r"
			}
			if p.Log {
				t += ",log"
			}
			fmt.Fprintf(&b, "%s\t%s\t%s\t(%s, %s)\n", name(p), sw, t, number(p.Min), number(p.Max))
		}
	}
	return b.String()
}

// name is a parameter's name as irace takes it: letters, digits, '_' and
// '.' only, so chain-factor becomes chain_factor (its switch keeps the
// name sudokulab knows).
func name(p tune.Param) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			return r
		}
		return '_'
	}, p.Name)
}

func number(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// Configurations returns the space's initial candidates in irace's
// configurations file syntax: a header of the parameter names, then one
// row per candidate, categorical values quoted.
func Configurations(s tune.Space) string {
	var b strings.Builder
	for i, p := range s.Params {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(name(p))
	}
	b.WriteByte('\n')
	for _, set := range s.Initial {
		for i, p := range s.Params {
			if i > 0 {
				b.WriteByte(' ')
			}
			v := set[p.Name]
			if p.Kind == tune.Categorical {
				v = strconv.Quote(v)
			}
			b.WriteString(v)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func instances(ids []int64) string {
	var b strings.Builder
	for _, id := range ids {
		fmt.Fprintln(&b, id)
	}
	return b.String()
}

func scenario(e Export) string {
	return fmt.Sprintf(`## irace scenario written by sudokulab tune --export irace.
parameterFile = "parameters.txt"
configurationsFile = "configurations.txt"
trainInstancesDir = ""
trainInstancesFile = "instances.txt"
targetRunner = "./target-runner"
maxExperiments = %d
seed = %d
digits = 4
execDir = "."
logFile = "irace.Rdata"
`, e.Budget, e.Seed%(1<<31))
}

func targetRunner(e Export) string {
	quote := func(args []string) string { return shell.Join(args...) }
	return fmt.Sprintf(`#!/bin/sh
# irace's target runner, written by sudokulab tune --export irace. irace
# calls it as: target-runner CONFIG_ID INSTANCE_ID SEED INSTANCE --set NAME=VALUE ...
# It does one run of the solver on puzzle INSTANCE with seed SEED through
# sudokulab run (a run already recorded is not done again) and prints the
# run's cost, read back from run_results.
set -eu
config_id=$1 instance_id=$2 seed=$3 instance=$4
shift 4
err=$(mktemp)
trap 'rm -f "$err"' EXIT
config=$(%s -O csv %s "$@" --puzzle "$instance" --seed "$seed" 2>"$err" | awk -F, 'NR == 2 { print $1 }')
[ -n "$config" ] || { echo "target-runner: the run of configuration $config_id on puzzle $instance failed:" >&2; tail -n 5 "$err" >&2; exit 1; }
%s -O csv sql "SELECT %s FROM run_results r JOIN configs c ON c.id = r.config_id WHERE c.name = '$config' AND r.puzzle_id = $instance AND r.seed = $seed AND r.max_evaluations = %d AND r.max_generations = %d AND r.timeout_ms = %d" | tail -n 1
`, quote(e.Sudokulab), quote(e.Run), quote(e.Sudokulab), e.Cost, e.MaxEvaluations, e.MaxGenerations, e.TimeoutMS)
}
