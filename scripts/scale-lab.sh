#!/usr/bin/env bash
# scale-lab.sh builds the lab of issue 33's scale goal: lab.db.example grown
# to 1,000,000 puzzles (tdoku's lists and their symmetry transformations,
# each solved and rated), 1,000,000 runs through the work queue and about
# 10,000,000 trajectory points, deterministic from the seed. Usage:
#
#   scripts/scale-lab.sh OUT.db [SEED]
#
# OUT.db must not exist; keep it outside the repository. On the 2-core build
# machine, niced among other jobs, it took 524 s and 2.1 GB (docs/web.md,
# How fast). The web benchmark reads it with
#
#   SUDOKULAB_SCALE_LAB=OUT.db go test ./web -run '^$' -bench Pages -benchtime 200x
#
# The puzzle lists are ../shared/data/tdoku/*.txt (TDOKU_DATA overrides).
set -euo pipefail

if [[ $# -lt 1 ]]; then
	echo "usage: $0 OUT.db [SEED]" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
data=${TDOKU_DATA:-$root/../shared/data/tdoku}
lists=()
for f in puzzles2_17_clue.txt puzzles3_magictour_top1465.txt puzzles6_forum_hardest_1106.txt puzzles5_forum_hardest_1905_11+.txt; do
	[[ -f $data/$f ]] || { echo "$0: $data/$f is missing (set TDOKU_DATA to the directory of tdoku's puzzle lists)" >&2; exit 2; }
	lists+=("$data/$f")
done
cd "$root"
go build -o /tmp/scalelab.$$ ./cmd/scalelab
trap 'rm -f /tmp/scalelab.$$' EXIT
start=$(date +%s)
/tmp/scalelab.$$ -db "$1" -from lab.db.example -seed "${2:-1}" "${lists[@]}"
echo "built $1 in $(( $(date +%s) - start )) s: $(du -h "$1" | cut -f1)"
