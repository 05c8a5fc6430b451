#!/usr/bin/env bash
# reproduce-ga.sh runs the experiments of the two genetic algorithms
# (docs/reproduction-ga.md) and prints our numbers beside the papers':
#   - Sato and Inoue 2010, Table 1: six puzzles x three variants;
#   - Sato and Inoue 2010, Tables 3 and 4: AI Escargot (SD2) and SD3, with
#     and without the disparity-hypothesis correction;
#   - Franco, Gomez and Gallego, section 6.2: the GA on Caso 1
#     (reseda-medium) with the parameters of Tablas 3 and 4;
#   - ours: the main settings of both without and with the AC3 prefilter.
#
# The paper's scale is the default (100 runs x 100,000 generations). Scale
# down with the variables, for example:
#   RUNS=20 RUNS_SD=10 scripts/reproduce-ga.sh
# A group whose run count is 0 is skipped. Runs already in the database are
# skipped, so an interrupted script resumes.
set -euo pipefail

RUNS=${RUNS:-100}              # runs per puzzle and configuration, Table 1 (paper: 100)
RUNS_LITERAL=${RUNS_LITERAL:-$RUNS} # runs of the literal mut+cross and mutation-only readings
RUNS_SD=${RUNS_SD:-$RUNS}      # runs on AI Escargot and SD3, Tables 3 and 4 (paper: 100)
RUNS_ELITE=${RUNS_ELITE:-$RUNS} # runs of our elitist variants of Table 1
GENS=${GENS:-100000}           # generation budget of Sato and Inoue (paper: 100,000)
FRANCO_RUNS=${FRANCO_RUNS:-$RUNS}   # the paper reports one run per setting
FRANCO_GENS=${FRANCO_GENS:-100000}  # the paper gives no budget; ours
AC3_RUNS=${AC3_RUNS:-20}       # runs of the AC3 prefilter comparison (ours)
AC3_GENS=${AC3_GENS:-20000}    # its generation budget
DB=${DB:-reproduce-ga.db}
JOBS=${JOBS:-$(nproc)}

cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then # BIN: a sudokulab binary to use instead of building one
  BIN=$(mktemp -d)/sudokulab
  go build -o "$BIN" ./cmd/sudokulab
fi
lab() { "$BIN" --db "$DB" "$@"; }

lab init --from lab.db.example

# group NAME RUNS ARGS... runs one group of experiments unless RUNS is 0.
group() {
  local name=$1 runs=$2
  shift 2
  if [ "$runs" -eq 0 ]; then
    echo "== $name: skipped" >&2
    return
  fi
  echo "== $name: $runs runs" >&2
  lab run --jobs "$JOBS" --runs "$runs" "$@"
}
TABLE1="collection = 'sato-inoue-2010' AND label LIKE 'sato-no%'"

group "Sato and Inoue, Table 1, mut+cross+LS and the help-array readings of the other two columns" "$RUNS" \
  --experiment ga-table1 --max-generations "$GENS" --where "$TABLE1" \
  --config sato-inoue-mut-cross-ls --config sato-inoue-mut-cross-any --config sato-inoue-mutation-any

group "Table 1, the literal mut+cross and swap mutation" "$RUNS_LITERAL" \
  --experiment ga-table1 --max-generations "$GENS" --where "$TABLE1" \
  --config sato-inoue-mut-cross --config sato-inoue-mutation

group "Table 1, mut+cross and mutation with elitism 1 (ours)" "$RUNS_ELITE" \
  --experiment ga-table1 --max-generations "$GENS" --where "$TABLE1" \
  --config sato-inoue-mut-cross-elite --config sato-inoue-mutation-elite

group "Table 1, mut+cross+LS with restarts (ours)" "$RUNS" \
  --experiment ga-table1 --max-generations "$GENS" --where "$TABLE1" \
  --config sato-inoue-mut-cross-ls-restart

group "Sato and Inoue, Tables 3 and 4, and ours with restarts" "$RUNS_SD" \
  --experiment ga-table3-4 --max-generations "$GENS" \
  --where "collection = 'sato-inoue-2010' AND label IN ('ai-escargot', 'sato-sd3')" \
  --config sato-inoue-mut-cross-ls --config sato-inoue-disparity --config sato-inoue-mut-cross-ls-restart

group "Franco et al., Caso 1, $FRANCO_GENS generations" "$FRANCO_RUNS" \
  --experiment ga-franco --max-generations "$FRANCO_GENS" \
  --collection franco-tabu-ga --config franco-table3 --config franco-table4

group "AC3 prefilter on and off (ours), $AC3_GENS generations" "$AC3_RUNS" \
  --experiment ga-ac3 --max-generations "$AC3_GENS" \
  --where "collection = 'sato-inoue-2010' AND label IN ('sato-no27', 'sato-no29', 'sato-no77', 'sato-no106', 'ai-escargot')" \
  --config sato-inoue-mut-cross-ls --config sato-inoue-mut-cross-ls-ac3 --config franco-table3 --config franco-table3-ac3

lab query reproduce-ga
