#!/bin/sh
# bench-tune.sh: sudokulab tune and irace side by side: the same solver,
# parameter space, training puzzles, budget and seed; then the two elites
# (and the first candidate, the preset) on the same test puzzles, compared
# with sudokulab compare on CPU seconds.
#
#   scripts/bench-tune.sh [BUDGET [TRAIN [TEST]]]
#
# BUDGET is the runs each tuner may do (300). TRAIN and TEST are
# puzzle_catalog predicates; by default every 20th and every 20th+10th
# puzzle of magictour's top1465 (/work/shared/data/tdoku), imported into a
# fresh lab in a temporary folder unless LAB names one to use.
# The environment chooses the rest:
#   SOLVER (lewis-sa), PRESET (lewis-sa-2007: the first candidate),
#   PARAMS (the --param flags; default: alpha, chain-factor and propagate),
#   SETS (--set flags fixing parameters for both tuners; none),
#   RUNFLAGS (each run's budget: --timeout 1s), OBJECTIVE (par10),
#   TEST_RUNS (3 seeds per test puzzle), SEED (1), JOBS (2).
# irace is Debian's r-cran-irace (installed if missing, with apt-get).
# The numbers go to docs/tuning.md by hand.
set -eu

budget=${1:-300}
train=${2:-"collection = 'top1465' AND id % 20 = 0"}
test=${3:-"collection = 'top1465' AND id % 20 = 10"}
solver=${SOLVER:-lewis-sa}
preset=${PRESET:-lewis-sa-2007}
params=${PARAMS:-"--param alpha=0.9..0.9999 --param chain-factor=log:0.01..10 --param propagate=none|singles|hidden"}
sets=${SETS:-}
runflags=${RUNFLAGS:-"--timeout 1s"}
objective=${OBJECTIVE:-par10}
test_runs=${TEST_RUNS:-3}
seed=${SEED:-1}
jobs=${JOBS:-2}
root=$(cd "$(dirname "$0")/.." && pwd)

if ! Rscript -e 'library(irace)' >/dev/null 2>&1; then
	apt-get install -y -q r-cran-irace >/dev/null
fi
irace=$(Rscript -e 'cat(system.file(package = "irace"))')/bin/irace

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/sudokulab" ./cmd/sudokulab)
sl="$work/sudokulab"
if [ -n "${LAB:-}" ]; then
	db=$LAB
else
	db="$work/lab.db"
	"$sl" --db "$db" init >/dev/null
	"$sl" --db "$db" import --collection top1465 /work/shared/data/tdoku/puzzles3_magictour_top1465.txt >/dev/null
fi
lab() { "$sl" --db "$db" "$@"; }

echo "sudokulab: $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet || echo +dirty), irace $(Rscript -e 'cat(as.character(packageVersion("irace")))')"
echo "cpus: $(nproc); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "solver $solver from $preset, $params, runs $runflags, objective $objective, budget $budget runs, seed $seed"
echo "train: $(lab -O csv sql "SELECT COUNT(*) FROM puzzle_catalog WHERE $train" | tail -n 1) puzzles ($train)"
echo "test: $(lab -O csv sql "SELECT COUNT(*) FROM puzzle_catalog WHERE $test" | tail -n 1) puzzles ($test), $test_runs runs each"
echo

# shellcheck disable=SC2086 # $params, $sets and $runflags are lists of flags
set -- --solver "$solver" --preset "$preset" --train "$train" --budget "$budget" --seed "$seed" --objective "$objective" $params $sets $runflags

echo "== sudokulab tune (ours), then the first candidate against our best elite on the test set"
start=$(date +%s)
lab tune "$@" --test "$test" --test-runs "$test_runs" --experiment bench-ours --jobs "$jobs"
echo "ours: $(($(date +%s) - start)) s"
echo

echo "== irace"
lab tune "$@" --experiment bench-ours --export irace "$work/irace"
start=$(date +%s)
(cd "$work/irace" && "$irace" --scenario scenario.txt --parallel "$jobs" >irace.log 2>&1) || {
	tail -n 30 "$work/irace/irace.log" >&2
	exit 1
}
echo "irace: $(($(date +%s) - start)) s, $(grep -c '' "$work/irace/instances.txt") training puzzles"
grep -A 4 '^# Best configurations (first' "$work/irace/irace.log"
# The best elite's settings, as irace passes them to the target runner.
best=$(awk '/^# Best configurations as commandlines/ { getline; $1 = ""; print; exit }' "$work/irace/irace.log")
echo

echo "== the two elites on the test set"
# shellcheck disable=SC2086 # $sets and $best are lists of --set flags, $runflags flags
irace_config=$(lab -O csv run --where "$test" --solver "$solver" $sets $best \
	--runs "$test_runs" --experiment bench-test $runflags --jobs "$jobs" 2>/dev/null | awk -F, 'NR == 2 { print $1 }')
# shellcheck disable=SC2086
lab run --where "$test" --config bench-ours-elite-1 --runs "$test_runs" --experiment bench-test $runflags --jobs "$jobs" >/dev/null 2>&1
echo "a = bench-ours-elite-1 (ours), b = $irace_config (irace)"
lab compare --config bench-ours-elite-1 --config "$irace_config" --experiment bench-test --time cpu | tail -n 1
# Each run once: the runs of our elite belong to both test experiments.
lab sql "SELECT config, COUNT(*) AS runs, SUM(solved) AS solved,
	ROUND(AVG(CASE WHEN solved = 1 THEN cpu_seconds ELSE 10 * timeout_ms / 1000.0 END), 4) AS par10
	FROM (SELECT DISTINCT e.id, e.config, e.solved, r.cpu_seconds, r.timeout_ms
		FROM experiment_run_results e JOIN runs r ON r.id = e.id
		WHERE e.experiment IN ('bench-test', 'bench-ours-test')) AS t
	GROUP BY config ORDER BY par10"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
