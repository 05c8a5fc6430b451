#!/usr/bin/env bash
# reproduce-restarts.sh compares the tuned restart thresholds of our restart
# presets with untuned restart schedules (package solvers/internal/restart;
# docs/reproduction.md, "Restarts: tuned against untuned"), on the same
# puzzles and the same seeds:
#   - the GA of Sato and Inoue, mut+cross+LS: sato-inoue-mut-cross-ls-restart
#     (a fixed patience of 5,000 generations, picked on the hard puzzles)
#     against sato-inoue-mut-cross-ls-luby (patience 100 x 1, 1, 2, 1, 1, 2,
#     4, ...) and sato-inoue-mut-cross-ls-geometric (100, 200, 400, ...);
#   - NB-COIN with credit=box: nb-coin-table2-box-restart (a fixed 300)
#     against nb-coin-table2-box-luby and nb-coin-table2-box-geometric (unit
#     100 likewise).
# The unit, 100 generations, is one thousandth of the papers' budget and was
# fixed before any run; it was not varied.
#
# Defaults: 20 GA runs and 10 NB-COIN runs per puzzle and configuration, at
# the papers' budget of 100,000 generations, on the puzzles where restarts
# matter (the tuned thresholds were picked on them). Change the scale with
# the variables, for example:
#   GA_RUNS=100 NB_RUNS=100 scripts/reproduce-restarts.sh
# A group whose run count is 0 is skipped. Runs already in the database are
# skipped, so raising a count later adds seeds. On a shared machine:
#   JOBS=1 nice -n 19 scripts/reproduce-restarts.sh
set -euo pipefail

GA_RUNS=${GA_RUNS:-20}     # runs per puzzle and GA configuration
NB_RUNS=${NB_RUNS:-10}     # runs per puzzle and NB-COIN configuration
GENS=${GENS:-100000}       # generation budget (both papers: 100,000)
GA_PUZZLES=${GA_PUZZLES:-sato-no29 sato-no77 sato-no106 ai-escargot sato-sd3}
NB_PUZZLES=${NB_PUZZLES:-sato-no77 sato-no106}
DB=${DB:-reproduce-restarts.db}
JOBS=${JOBS:-$(nproc)}

cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then # BIN: a sudokulab binary to use instead of building one
  BIN=$(mktemp -d)/sudokulab
  go build -o "$BIN" ./cmd/sudokulab
fi
lab() { "$BIN" --db "$DB" "$@"; }

lab init --from lab.db.example

labels() { echo "label IN ('${1// /\', \'}')"; }

if [ "$GA_RUNS" -gt 0 ]; then
  for config in sato-inoue-mut-cross-ls-restart sato-inoue-mut-cross-ls-luby sato-inoue-mut-cross-ls-geometric; do
    echo "== GA, $config: $GA_RUNS runs x $GENS generations" >&2
    lab run --experiment restart-schedules --jobs "$JOBS" --runs "$GA_RUNS" --max-generations "$GENS" \
      --where "collection = 'sato-inoue-2010' AND $(labels "$GA_PUZZLES")" --config "$config"
  done
fi
if [ "$NB_RUNS" -gt 0 ]; then
  for config in nb-coin-table2-box-restart nb-coin-table2-box-luby nb-coin-table2-box-geometric; do
    echo "== NB-COIN, $config: $NB_RUNS runs x $GENS generations" >&2
    lab run --experiment restart-schedules --jobs "$JOBS" --runs "$NB_RUNS" --max-generations "$GENS" \
      --where "collection = 'nb-coin' AND $(labels "$NB_PUZZLES")" --config "$config"
  done
fi

# The comparison: the same seeds for every configuration of a solver.
lab sql "
SELECT r.solver, pc.label AS puzzle, r.config,
       COUNT(*) AS runs, SUM(r.solved) AS solved,
       MIN(r.seed) AS first_seed, MAX(r.seed) AS last_seed,
       ROUND(AVG(CASE WHEN r.solved = 1 THEN r.generations ELSE r.max_generations END)) AS mean_generations,
       ROUND(AVG(CASE WHEN r.solved = 1 THEN r.generations END)) AS mean_generations_solved,
       ROUND(AVG(r.restarts), 1) AS mean_restarts,
       ROUND(AVG(r.best_cost), 2) AS mean_best_cost
FROM experiment_run_results r
JOIN puzzle_catalog pc ON pc.id = r.puzzle_id AND pc.collection = 'paper-puzzles'
WHERE r.experiment = 'restart-schedules'
GROUP BY r.solver, pc.label, r.config
ORDER BY r.solver, pc.label, r.config"
