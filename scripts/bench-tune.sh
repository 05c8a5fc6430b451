#!/bin/sh
# bench-tune.sh: the two tuning scenarios of issue 35, sudokulab tune and
# irace side by side on each: the same solver, parameter space, training
# puzzles, run budget, tuning budget and seed; then the solver's paper
# preset, our best elite and irace's best elite on the same test puzzles
# (the same seeds), compared with sudokulab compare on CPU seconds
# (Fisher's exact test on the successes, the log-rank test on the times),
# the scenario's four p-values (ours against the preset, ours against
# irace's, each by both tests) adjusted together by Holm's method.
#
#   scripts/bench-tune.sh [SCENARIO ...]      # 9x9 and 16x16 by default
#   nice -n 5 scripts/bench-tune.sh 16x16
#
# Scenarios (each in a fresh lab in a temporary folder):
#   9x9    lewis-sa on magictour's top1465 (/work/shared/data/tdoku): every
#          20th puzzle to train (73), every 20th + 10th to test (73)
#   16x16  lewis-sa on 120 16x16 grids with 45 % of the cells given
#          (scripts/instance-classes.sh, SEED 1): even ids to train (60),
#          odd ids to test (60)
# Both tune alpha (0.9..0.9999), chain-factor (log 0.01..10) and propagate
# from the preset lewis-sa-2007, par10 on CPU seconds. A run stops at an
# evaluation budget (9x9: 5,000,000 swaps; 16x16: 3,000,000), so that
# whether it solves does not depend on the machine's load; the timeout
# (10 s) is only a guard, and ten times it is an unsolved run's cost.
# The environment changes the rest: BUDGET (runs per tuner, 1000),
# TEST_RUNS (seeds per test puzzle, 4), SEED (1), JOBS (2).
#
# For each scenario it prints the elites, a table of the three
# configurations on the test set (runs solved, median CPU seconds of the
# solved runs, ERT in CPU seconds with its bootstrap interval), the
# p-values raw and Holm-adjusted, and the scenario's wall time, its CPU
# time (user + system of every process it ran, irace's included) and the
# machine's load average (sampled every 10 s) while it ran: on a shared
# machine the wall time says little, the CPU time what it costs.
# irace is Debian's r-cran-irace (installed if missing, with apt-get).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
budget=${BUDGET:-1000}
test_runs=${TEST_RUNS:-4}
seed=${SEED:-1}
jobs=${JOBS:-2}
[ $# -gt 0 ] || set -- 9x9 16x16

if ! Rscript -e 'library(irace)' >/dev/null 2>&1; then
	apt-get install -y -q r-cran-irace >/dev/null
fi
irace=$(Rscript -e 'cat(system.file(package = "irace"))')/bin/irace

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/sudokulab" ./cmd/sudokulab)
echo "sudokulab $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet || echo +dirty), irace $(Rscript -e 'cat(as.character(packageVersion("irace")))'), $(nproc) cpus"

# field NAME: the value of column NAME in the last line of the CSV on stdin.
field() {
	awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) col = i } END { print $col }'
}

# scenario NAME runs one scenario in a subshell, whose `times` then counts
# the CPU time of exactly what it ran.
scenario() (
	name=$1
	dir="$work/$name"
	mkdir -p "$dir"
	db="$dir/lab.db"
	lab() { "$work/sudokulab" --db "$db" "$@"; }
	params="--param alpha=0.9..0.9999 --param chain-factor=log:0.01..10 --param propagate=none|singles|hidden"
	case $name in
	9x9)
		solver=lewis-sa preset=lewis-sa-2007
		train="collection = 'top1465' AND id % 20 = 0"
		test="collection = 'top1465' AND id % 20 = 10"
		runflags="--max-evaluations 5000000 --timeout 10s"
		lab init >/dev/null
		lab import --collection top1465 /work/shared/data/tdoku/puzzles3_magictour_top1465.txt >/dev/null 2>&1
		;;
	16x16)
		solver=lewis-sa preset=lewis-sa-2007
		train="collection = 'class-16x16-45' AND id % 2 = 0"
		test="collection = 'class-16x16-45' AND id % 2 = 1"
		runflags="--max-evaluations 3000000 --timeout 10s"
		DB=$db COUNT=120 SIZES=16 PCTS=45 SEED=1 "$root/scripts/instance-classes.sh" >/dev/null
		;;
	*)
		echo "bench-tune.sh: scenario $name: want 9x9 or 16x16" >&2
		exit 2
		;;
	esac
	count() { lab -O csv sql "SELECT COUNT(*) FROM puzzle_catalog WHERE $1" | tail -n 1; }
	echo
	echo "=== scenario $name: $solver from $preset; $params"
	echo "runs: $runflags, objective par10 (CPU s); budget $budget runs per tuner, seed $seed, $jobs jobs"
	echo "train: $(count "$train") puzzles ($train)"
	echo "test: $(count "$test") puzzles ($test), $test_runs seeds each"

	# The load average every 10 s while the scenario runs.
	(while :; do cut -d' ' -f1 /proc/loadavg; sleep 10; done) >"$dir/load" &
	sampler=$!
	trap 'kill "$sampler" 2>/dev/null' EXIT
	start=$(date +%s)
	times >"$dir/cpu0" # the shell's, then its children's, user and sys

	# shellcheck disable=SC2086 # $params and $runflags are lists of flags
	set -- --solver "$solver" --preset "$preset" --train "$train" --budget "$budget" --seed "$seed" --objective par10 $params $runflags
	t=$(date +%s)
	lab tune "$@" --experiment bench-ours --jobs "$jobs" >"$dir/ours.log" 2>&1 || { tail -n 20 "$dir/ours.log" >&2; exit 1; }
	echo "ours: $(($(date +%s) - t)) s wall; $(lab -O csv sql "SELECT COUNT(*) FROM experiment_run_results WHERE experiment = 'bench-ours'" | tail -n 1) runs"
	tail -n 12 "$dir/ours.log"

	lab tune "$@" --experiment bench-ours --export irace "$dir/irace"
	t=$(date +%s)
	(cd "$dir/irace" && "$irace" --scenario scenario.txt --parallel "$jobs" >irace.log 2>&1) || {
		tail -n 30 "$dir/irace/irace.log" >&2
		exit 1
	}
	echo "irace: $(($(date +%s) - t)) s wall; $(grep -E '^# (Total CPU|experimentsUsedSoFar)' "$dir/irace/irace.log" | tail -n 2 | tr '\n' ' ')"
	grep -A 4 '^# Best configurations (first' "$dir/irace/irace.log"
	# The best elite's settings, as irace passes them to the target runner.
	best=$(awk '/^# Best configurations as commandlines/ { getline; $1 = ""; print; exit }' "$dir/irace/irace.log")

	# The three on the test set, the same puzzles and seeds.
	lab run --where "$test" --config "$preset" --runs "$test_runs" --experiment bench-test $runflags --jobs "$jobs" >/dev/null 2>&1
	lab run --where "$test" --config bench-ours-elite-1 --runs "$test_runs" --experiment bench-test $runflags --jobs "$jobs" >/dev/null 2>&1
	# shellcheck disable=SC2086 # $best is a list of --set flags
	irace_config=$(lab -O csv run --where "$test" --solver "$solver" $best \
		--runs "$test_runs" --experiment bench-test $runflags --jobs "$jobs" 2>/dev/null | awk -F, 'NR == 2 { print $1 }')
	ours=bench-ours-elite-1
	echo "ours: $ours = $(lab sql "SELECT params FROM configs WHERE name = '$ours'" | tail -n 1)"
	echo "irace: $irace_config =$best"

	# The "all" rows of the two comparisons the criterion asks for.
	lab -O csv compare --config "$ours" --config "$preset" --experiment bench-test --time cpu >"$dir/vs-preset.csv"
	lab -O csv compare --config "$ours" --config "$irace_config" --experiment bench-test --time cpu >"$dir/vs-irace.csv"
	p1=$(field fisher_p <"$dir/vs-preset.csv") p2=$(field logrank_p <"$dir/vs-preset.csv")
	p3=$(field fisher_p <"$dir/vs-irace.csv") p4=$(field logrank_p <"$dir/vs-irace.csv")
	holm=$(Rscript -e "cat(signif(p.adjust(c($p1, $p2, $p3, $p4), 'holm'), 4))")

	echo
	echo "configuration | found by | test runs solved | median CPU s (solved) | ERT CPU s (95 % interval)"
	row() { # row NAME LABEL CSV a|b
		printf '%s | %s | %s / %s | %s | %s (%s-%s)\n' "$1" "$2" "$(field solved_"$4" <"$3")" "$(field runs_"$4" <"$3")" \
			"$(field median_"$4" <"$3")" "$(field ert_"$4" <"$3")" "$(field ert_"$4"_low <"$3")" "$(field ert_"$4"_high <"$3")"
	}
	row "$preset" "the paper" "$dir/vs-preset.csv" b
	row "$ours" "ours" "$dir/vs-preset.csv" a
	row "$irace_config" "irace" "$dir/vs-irace.csv" b
	set -- $holm
	echo
	echo "comparison | test | p | Holm-adjusted p (over these four)"
	echo "ours vs preset | Fisher | $p1 | $1"
	echo "ours vs preset | log-rank | $p2 | $2"
	echo "ours vs irace | Fisher | $p3 | $3"
	echo "ours vs irace | log-rank | $p4 | $4"

	echo
	times >"$dir/cpu1"
	tail -q -n 1 "$dir/cpu0" "$dir/cpu1" | awk -v wall=$(($(date +%s) - start)) -v name="$name" '
		function sec(x, m) { split(x, m, "m"); return m[1] * 60 + m[2] }
		{ c[NR] = sec($1) + sec($2) }
		END { printf "%s: wall time %d s; CPU time (user + sys) %.0f s\n", name, wall, c[2] - c[1] }'
	awk '{ s += $1; n++; if ($1 > m) m = $1 } END { printf "load average (1 min) while it ran: mean %.1f, max %.1f over %d samples\n", s / n, m, n }' "$dir/load"
)

for s in "$@"; do
	scenario "$s"
done
