#!/usr/bin/env bash
# large-grids.sh imports COUNT puzzles (default 100) of each large-grid
# instance class (9x9, 16x16 and 25x25 with 45 % of the cells given, the
# hardest region for 25x25; made by cmd/mkinstances from a seed) into a
# fresh lab with a per-puzzle counting budget (BUDGET, default 1s), and
# prints the wall time against the bound budget x count / cores, the
# puzzles stored and those whose count was left undetermined; then runs
# `sudokulab count` with a larger budget (RECOUNT, default 5s) on the
# 25x25 ones. Results are in docs/large-grids.md.
#
#   scripts/large-grids.sh
#   COUNT=20 BUDGET=2s scripts/large-grids.sh
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-100}
budget=${BUDGET:-1s}
recount=${RECOUNT:-5s}
cores=$(nproc)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/sudokulab" ./cmd/sudokulab
go build -o "$dir/mkinstances" ./cmd/mkinstances
sl="$dir/sudokulab"
lab="$dir/lab.db"
"$sl" --db "$lab" init > /dev/null
secs=${budget%s}
for order in 3 4 5; do
	n=$((order * order))
	"$dir/mkinstances" -order $order -given 0.45 -count "$count" -seed 1 -o "$dir/g$n" > /dev/null
	start=$(date +%s.%N)
	"$sl" --db "$lab" import "$dir"/g$n/*.instance --collection "g$n-45" --count-timeout "$budget" > /dev/null 2> "$dir/import-$n.err"
	end=$(date +%s.%N)
	q() { "$sl" --db "$lab" -O csv sql "$1" | tail -1; }
	stored=$(q "SELECT COUNT(*) FROM puzzle_catalog WHERE collection = 'g$n-45'")
	undetermined=$(q "SELECT COUNT(*) FROM puzzle_catalog WHERE collection = 'g$n-45' AND count_status = 'undetermined'")
	printf '%dx%d, 45%% given, %d puzzles, budget %s: %.1f s (bound %s x %d / %d cores = %.0f s); stored %s, undetermined %s\n' \
		$n $n "$count" "$budget" "$(echo "$end - $start" | bc)" "$budget" "$count" "$cores" "$(echo "$secs * $count / $cores" | bc -l)" "$stored" "$undetermined"
done
start=$(date +%s.%N)
"$sl" --db "$lab" count --collection g25-45 --timeout "$recount" > "$dir/count.out" 2>&1 || true
end=$(date +%s.%N)
printf 'count --timeout %s on the 25x25 class: %.1f s; %s\n' "$recount" "$(echo "$end - $start" | bc)" "$(grep -E '^counted' "$dir/count.out" | tail -1)"
