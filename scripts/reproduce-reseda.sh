#!/usr/bin/env bash
# reproduce-reseda.sh runs the experiments of Maire and Prissette 2012
# (RESEDA; docs/reproduction-reseda-nbcoin.md) and prints our numbers beside
# the paper's:
#   - Table 1: the easy puzzle, three variants x four alphas, one resolution;
#   - Table 2: the medium puzzle, six alphas, one resolution;
#   - Table 3: the hard puzzle, one attempt without / with partial restarts
#     on 1 zone out of 3, 9 or 27;
#   - Table 5: AI Escargot, one attempt with 3, 9 or 27 zones;
#   - section 5.2: AI Escargot with the right top-left permutation fixed
#     (one attempt), and the brute-force hybrid until solved;
#   - section 5.1's recommended strategy until solved (no paper numbers).
# Table 4 (1000 generated puzzles per level from Kennett's sudoku 1.0.1-3)
# is left out: those puzzle sets are not available.
#
# The paper's run counts are the defaults. Scale down with the variables,
# for example:
#   RUNS=20 RUNS_HARD=100 RUNS_BRUTE=5 scripts/reproduce-reseda.sh
# Runs already in the database are skipped, so an interrupted script resumes.
set -euo pipefail

RUNS=${RUNS:-100}               # Tables 1 and 2 (paper: 100)
RUNS_HARD=${RUNS_HARD:-1000}    # Tables 3 and 5, section 5.2 fixed block (paper: 1000)
RUNS_BRUTE=${RUNS_BRUTE:-100}   # section 5.2 brute force until solved (paper: not reported)
RUNS_REC=${RUNS_REC:-$RUNS}     # section 5.1 recommended strategy until solved
DB=${DB:-reproduce-reseda.db}
JOBS=${JOBS:-$(nproc)}

cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then # BIN: a sudokulab binary to use instead of building one
  BIN=$(mktemp -d)/sudokulab
  go build -o "$BIN" ./cmd/sudokulab
fi
lab() { "$BIN" --db "$DB" "$@"; }
puzzle() { echo "collection = 'reseda-2012' AND label = '$1'"; }

lab init --from lab.db.example

echo "== Table 1: easy puzzle, $RUNS runs" >&2
configs=()
for v in both perm precomp; do
  for a in 0.99 0.9 0.7 0.5; do configs+=(--config "reseda-table1-$v-a$a"); done
done
lab run --experiment reseda-table1 --jobs "$JOBS" --runs "$RUNS" --where "$(puzzle reseda-easy)" "${configs[@]}"

echo "== Table 2: medium puzzle, $RUNS runs" >&2
lab run --experiment reseda-table2 --jobs "$JOBS" --runs "$RUNS" --where "$(puzzle reseda-medium)" \
  --config reseda-table1-both-a0.99 --config reseda-table1-both-a0.9 --config reseda-table1-both-a0.7 \
  --config reseda-table1-both-a0.5 --config reseda-table2-a0.3 --config reseda-table2-a0.1

echo "== Table 3: hard puzzle, $RUNS_HARD attempts" >&2
lab run --experiment reseda-table3 --jobs "$JOBS" --runs "$RUNS_HARD" --where "$(puzzle reseda-hard)" \
  --config reseda-table1-both-a0.7 --config reseda-table3-zones3 --config reseda-table3-zones9 --config reseda-table3-zones27

echo "== Table 5: AI Escargot, $RUNS_HARD attempts" >&2
lab run --experiment reseda-table5 --jobs "$JOBS" --runs "$RUNS_HARD" --where "$(puzzle ai-escargot)" \
  --config reseda-table3-zones3 --config reseda-table3-zones9 --config reseda-table3-zones27

echo "== Section 5.2: AI Escargot, right permutation fixed ($RUNS_HARD attempts), brute force ($RUNS_BRUTE runs)" >&2
lab run --experiment reseda-sec5.2 --jobs "$JOBS" --runs "$RUNS_HARD" --where "$(puzzle ai-escargot)" \
  --config reseda-sec5.2-fixed-block
lab run --experiment reseda-sec5.2 --jobs "$JOBS" --runs "$RUNS_BRUTE" --where "$(puzzle ai-escargot)" \
  --config reseda-sec5.2-brute-force

echo "== Section 5.1: recommended strategy until solved, $RUNS_REC runs" >&2
lab run --experiment reseda-sec5.1 --jobs "$JOBS" --runs "$RUNS_REC" \
  --where "collection = 'reseda-2012' AND label IN ('reseda-easy', 'reseda-medium', 'reseda-hard')" \
  --config reseda-sec5.1-recommended

lab sql -- "$(cat queries/reproduce-reseda.sql)"
