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
#   - nb-coin-table2-neighbour and nb-coin-table2-mean-neighbour: the
#     neighbour reading of section IV (a cell does not draw a symbol already
#     placed in its row or column of the grid), eq. 4-5 summed and averaged;
#   - EXTRA (optional): any other settings, as --set flags, for example
#     EXTRA="--set learning=mean --set step=0.1".
#
# The paper's scale is the default (100 runs x 100,000 generations). Scale
# down with the variables, for example:
#   RUNS=20 GENS=20000 scripts/reproduce-nbcoin.sh
# PUZZLES restricts the run to some of the six puzzles, by label, for
# example PUZZLES="sato-no77 sato-no106". Runs already in the database are
# skipped, so an interrupted script resumes and raising RUNS adds seeds.
# On a shared machine: JOBS=1 nice -n 19 scripts/reproduce-nbcoin.sh.
set -euo pipefail

RUNS=${RUNS:-100}        # runs per puzzle and configuration (paper: 100)
GENS=${GENS:-100000}     # generation budget (paper: 100,000)
EXTRA=${EXTRA:-}         # --set flags of an extra configuration, or empty
PUZZLES=${PUZZLES:-}     # labels of nb-coin puzzles, space-separated (default: all six)
# CONFIGS: the presets to run (default: the six above), space-separated
DB=${DB:-reproduce-nbcoin.db}
JOBS=${JOBS:-$(nproc)}

cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then # BIN: a sudokulab binary to use instead of building one
  BIN=$(mktemp -d)/sudokulab
  go build -o "$BIN" ./cmd/sudokulab
fi
lab() { "$BIN" --db "$DB" "$@"; }

lab init --from lab.db.example

CONFIGS=${CONFIGS:-nb-coin-table2 nb-coin-table2-mean nb-coin-table2-box nb-coin-table2-box-restart nb-coin-table2-neighbour nb-coin-table2-mean-neighbour}
WHERE="collection = 'nb-coin'"
if [ -n "$PUZZLES" ]; then
  WHERE="$WHERE AND label IN ('${PUZZLES// /\', \'}')"
fi

for config in $CONFIGS; do
  echo "== Table II, $config: $RUNS runs x $GENS generations" >&2
  lab run --experiment nb-coin-table2 --jobs "$JOBS" --runs "$RUNS" --max-generations "$GENS" \
    --where "$WHERE" --config "$config"
done
if [ -n "$EXTRA" ]; then
  echo "== Table II, nb-coin $EXTRA: $RUNS runs x $GENS generations" >&2
  # shellcheck disable=SC2086 # EXTRA is a list of flags
  lab run --experiment nb-coin-table2 --jobs "$JOBS" --runs "$RUNS" --max-generations "$GENS" \
    --where "$WHERE" --solver nb-coin $EXTRA
fi

lab query reproduce-nbcoin
lab query reproduction-scoreboard --param paper=nb-coin
