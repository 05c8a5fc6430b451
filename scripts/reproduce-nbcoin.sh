#!/usr/bin/env bash
# reproduce-nbcoin.sh runs Table II of Waiyapara, Wattanapornprom and
# Chongstitvatana (NB-COIN; docs/reproduction-reseda-nbcoin.md) on the six
# puzzles of Sato and Inoue (collection nb-coin) and prints our numbers
# beside the paper's:
#   - nb-coin-table2: the Table I settings, eq. 4 and 5 summed as written;
#   - nb-coin-table2-mean: the same, the sums averaged over each group;
#   - nb-coin-table2-box: each box's model taught by its own best and worst
#     grids (the co-evolution reading of section IV);
#   - nb-coin-table2-box-restart (ours): the same, restarted from the
#     initial models after 300 generations without a better grid;
#   - EXTRA (optional): any other settings, as --set flags, for example
#     EXTRA="--set learning=mean --set step=0.1".
#
# The paper's scale is the default (100 runs x 100,000 generations). Scale
# down with the variables, for example:
#   RUNS=20 GENS=20000 scripts/reproduce-nbcoin.sh
# Runs already in the database are skipped, so an interrupted script resumes.
set -euo pipefail

RUNS=${RUNS:-100}        # runs per puzzle and configuration (paper: 100)
GENS=${GENS:-100000}     # generation budget (paper: 100,000)
EXTRA=${EXTRA:-}         # --set flags of an extra configuration, or empty
# CONFIGS: the presets to run (default: the four above), space-separated
DB=${DB:-reproduce-nbcoin.db}
JOBS=${JOBS:-$(nproc)}

cd "$(dirname "$0")/.."
BIN=${BIN:-$(mktemp -d)/sudokulab}
go build -o "$BIN" ./cmd/sudokulab
lab() { "$BIN" --db "$DB" "$@"; }

lab init --from lab.db.example

CONFIGS=${CONFIGS:-nb-coin-table2 nb-coin-table2-mean nb-coin-table2-box nb-coin-table2-box-restart}

for config in $CONFIGS; do
  echo "== Table II, $config: $RUNS runs x $GENS generations" >&2
  lab run --experiment nb-coin-table2 --jobs "$JOBS" --runs "$RUNS" --max-generations "$GENS" \
    --collection nb-coin --config "$config"
done
if [ -n "$EXTRA" ]; then
  echo "== Table II, nb-coin $EXTRA: $RUNS runs x $GENS generations" >&2
  # shellcheck disable=SC2086 # EXTRA is a list of flags
  lab run --experiment nb-coin-table2 --jobs "$JOBS" --runs "$RUNS" --max-generations "$GENS" \
    --collection nb-coin --solver nb-coin $EXTRA
fi

lab query reproduce-nbcoin
