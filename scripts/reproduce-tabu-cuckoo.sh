#!/usr/bin/env bash
# reproduce-tabu-cuckoo.sh runs the experiments of the tabu search and the
# prefiltered cuckoo search (docs/reproduction-tabu-cuckoo.md) and prints
# our numbers beside the papers':
#   - tuning (TUNE=1): the cuckoo search's lost settings (nests, pa, pc, pm)
#     on sato-no27 and sato-no29 with the AC3 prefilter, 10,000 iterations;
#   - Franco et al. section 6.1: the tabu search on Caso 1 (reseda-medium),
#     the Table 2 settings and our variants, against the reported 637
#     iterations;
#   - Soto et al. 2014, Tables 1 and 2: the cuckoo search with 10,000 and
#     100,000 iterations on reseda-easy, -medium and -hard (standing in for
#     the paper's Mantere-Koljonen puzzles), with and without AC3;
#   - Soto et al. Table 2's quoted hybrid AC3-tabu search on reseda-hard,
#     with our tabu search after the AC3 prefilter standing in;
#   - both solvers with and without the prefilter on the paper puzzles that
#     AC3 does not solve by itself (sato-no27, -no29, -no77, -no106,
#     ai-escargot).
#
# The paper's scale is the default (30 runs per puzzle, as Soto et al.
# Table 2). Scale down with the variables, for example:
#   RUNS=10 RUNS_EXTRA=5 TUNE_RUNS=3 scripts/reproduce-tabu-cuckoo.sh
# Runs already in the database are skipped, so an interrupted script resumes.
set -euo pipefail

RUNS=${RUNS:-30}                  # cuckoo runs per puzzle and budget (paper: 30; Table 1 used 50-97 tries)
TABU_RUNS=${TABU_RUNS:-$RUNS}     # tabu runs on Caso 1 (the paper reports one run)
TABU_GENS=${TABU_GENS:-100000}    # tabu iteration budget (the paper gives none; it reports 637)
CK_SHORT=${CK_SHORT:-10000}       # Soto et al. Table 1
CK_LONG=${CK_LONG:-100000}        # Soto et al. Table 2
RUNS_EXTRA=${RUNS_EXTRA:-$RUNS}   # runs per puzzle in the prefilter comparison
EXTRA_GENS=${EXTRA_GENS:-100000}  # its iteration budget
TUNE=${TUNE:-1}                   # 1: run the cuckoo tuning grid first
TUNE_RUNS=${TUNE_RUNS:-5}         # seeds per tuning configuration and puzzle
TUNE_GENS=${TUNE_GENS:-10000}
TUNE_ONLY=${TUNE_ONLY:-0}         # 1: stop after the tuning
DB=${DB:-reproduce-tabu-cuckoo.db}
JOBS=${JOBS:-$(nproc)}

cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then # BIN: a sudokulab binary to use instead of building one
  BIN=$(mktemp -d)/sudokulab
  go build -o "$BIN" ./cmd/sudokulab
fi
lab() { "$BIN" --db "$DB" "$@"; }

lab init --from lab.db.example

if [ "$TUNE" = 1 ]; then
  echo "== cuckoo tuning: 72 settings x sato-no27, sato-no29 x $TUNE_RUNS seeds x $TUNE_GENS iterations" >&2
  for nests in 10 25 50 100; do
    for pa in 0.1 0.25; do
      for pc in 0 0.5 1; do
        for pm in 0.1 0.2 0.5; do
          lab run --experiment cuckoo-tuning --jobs "$JOBS" --runs "$TUNE_RUNS" --seed 1001 \
            --max-generations "$TUNE_GENS" --trace final \
            --where "collection = 'paper-puzzles' AND label IN ('sato-no27', 'sato-no29')" \
            --solver soto-cuckoo --set nests=$nests --set pa=$pa --set pc=$pc --set pm=$pm >/dev/null
        done
      done
    done
  done
  lab sql "
    SELECT json_extract(c.params, '\$.nests') AS nests, json_extract(c.params, '\$.pa') AS pa,
           json_extract(c.params, '\$.pc') AS pc, json_extract(c.params, '\$.pm') AS pm,
           COUNT(*) AS runs, SUM(r.solved) AS solved, ROUND(AVG(r.best_cost), 2) AS mean_best_cost,
           ROUND(AVG(r.wall_seconds), 3) AS mean_seconds
    FROM run_results r JOIN configs c ON c.id = r.config_id
    WHERE r.experiment = 'cuckoo-tuning'
    GROUP BY c.id ORDER BY solved DESC, mean_best_cost, mean_seconds"
  [ "$TUNE_ONLY" = 1 ] && exit 0
fi

echo "== Franco et al., Caso 1: $TABU_RUNS runs x $TABU_GENS iterations" >&2
lab run --experiment tabu-caso1 --jobs "$JOBS" --runs "$TABU_RUNS" --max-generations "$TABU_GENS" \
  --collection franco-tabu-ga \
  --config franco-tabu-table2 --config franco-tabu-table2-aspiration --config franco-tabu-union \
  --config franco-tabu-table2-move --config franco-tabu-union-move --config franco-tabu-no-memory \
  --config franco-tabu-table2-ac3 --config franco-tabu-union-move-ac3

for table in table1:"$CK_SHORT" table2:"$CK_LONG"; do
  gens=${table#*:}
  echo "== Soto et al., cuckoo search (${table%%:*}): $RUNS runs x $gens iterations" >&2
  lab run --experiment "cuckoo-${table%%:*}" --jobs "$JOBS" --runs "$RUNS" --max-generations "$gens" \
    --collection soto-2014 --config soto-cuckoo --config soto-cuckoo-no-prefilter
done

# Table 2 also quotes a hybrid AC3-tabu search (30/30 on its hard puzzle);
# our tabu search after the AC3 prefilter stands in for it (readings=all).
echo "== Soto et al. Table 2's quoted AC3-tabu hybrid, ours standing in: $RUNS runs x $CK_LONG iterations" >&2
lab run --experiment cuckoo-table2-hybrid --jobs "$JOBS" --runs "$RUNS" --max-generations "$CK_LONG" \
  --where "collection = 'soto-2014' AND label = 'reseda-hard'" \
  --config franco-tabu-union-move-ac3 --config franco-tabu-table2-ac3

echo "== With and without the prefilter: $RUNS_EXTRA runs x $EXTRA_GENS iterations" >&2
lab run --experiment prefilter-hard --jobs "$JOBS" --runs "$RUNS_EXTRA" --max-generations "$EXTRA_GENS" \
  --where "collection = 'paper-puzzles' AND label IN ('sato-no27', 'sato-no29', 'sato-no77', 'sato-no106', 'ai-escargot')" \
  --config franco-tabu-table2 --config franco-tabu-table2-ac3 \
  --config franco-tabu-union-move --config franco-tabu-union-move-ac3 --config franco-tabu-union-move-gac \
  --config soto-cuckoo-no-prefilter --config soto-cuckoo --config soto-cuckoo-domain-moves --config soto-cuckoo-gac

lab query reproduce-tabu-cuckoo
