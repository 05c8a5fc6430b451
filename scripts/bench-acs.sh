#!/bin/sh
# bench-acs.sh: the lab's acs solver and Lloyd and Amos's sudoku_acs side by
# side, alternating run by run, on AI Escargot and on forum-hardest puzzles.
#
#   scripts/bench-acs.sh PATH-TO-SUDOKU_ACS-SOURCE [RUNS_ESCARGOT [PUZZLES [RUNS_EACH]]]
#
# It copies the sudoku_acs source to a temporary folder, adds one line that
# prints the iteration count on stderr when Solve ends (nothing else
# changes), builds it with g++ -O3, builds cmd/benchacs, and runs both under
# nice: RUNS_ESCARGOT (20) runs of AI Escargot, then RUNS_EACH (5) runs of
# each of the first PUZZLES (50) puzzles of tdoku's forum-hardest list, each
# run with a 10 s timeout. The load average before and after is printed.
# Results go to docs/beyond-seeds.md by hand.
#
# CONFIGS (default acs-lloyd-amos) names the lab presets run beside
# sudoku_acs, space-separated. With INSTANCES, a glob of instance files of
# any shape (sudoku_acs's instances/general, or those of
# scripts/instance-classes.sh's mkinstances), it runs those instead, the
# first PER_CLASS (10) of each class, RUNS_EACH runs each, and prints one
# table per class:
#
#   INSTANCES="$HOME/sudoku_acs/instances/general/inst25x25_4[05]_*.txt" CONFIGS="acs-lloyd-amos lewis-sa-2007" \
#     scripts/bench-acs.sh ~/sudoku_acs 0 0 2
set -eu

if [ $# -lt 1 ] || [ ! -f "$1/src/sudokuantsystem.cpp" ]; then
	echo "usage: $0 PATH-TO-SUDOKU_ACS-SOURCE [RUNS_ESCARGOT [PUZZLES [RUNS_EACH]]]" >&2
	echo "get the source with: git clone https://github.com/huwlloyd-mmu/sudoku_acs" >&2
	exit 2
fi
src=$1
runs_escargot=${2:-20}
puzzles=${3:-50}
runs_each=${4:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
hardest=${HARDEST:-/work/shared/data/tdoku/puzzles6_forum_hardest_1106.txt}
escargot=$(grep '^ai-escargot,' "$root/internal/paperdata/paper-puzzles.csv" | cut -d, -f6)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src/src" "$work/src"
# The one added line: print the iteration count before the pheromone is
# freed at the end of SudokuAntSystem::Solve (the file has CRLF endings).
sed -i 's/^\tClearPheromone();\r\{0,1\}$/\tstd::cerr << "iterations " << iter << std::endl;\n&/' "$work/src/sudokuantsystem.cpp"
if [ "$(grep -c 'std::cerr << "iterations "' "$work/src/sudokuantsystem.cpp")" != 1 ]; then
	echo "$0: could not add the iteration line to sudokuantsystem.cpp (a different version of sudoku_acs?)" >&2
	exit 1
fi
for f in board sudokuant sudokuantsystem backtracksearch solvermain; do
	g++ -c -O3 -std=c++11 "$work/src/$f.cpp" -o "$work/$f.o"
done
g++ -o "$work/sudokusolver" "$work"/*.o
(cd "$root" && go build -o "$work/benchacs" ./cmd/benchacs)

echo "sudoku_acs: $(git -C "$src" rev-parse HEAD 2>/dev/null || echo "$src"), g++ -O3: $(g++ --version | head -1)"
echo "sudokulab: $(git -C "$root" rev-parse --short HEAD 2>/dev/null)$(git -C "$root" diff --quiet 2>/dev/null || echo +dirty), $(go version)"
echo "cpus: $(nproc); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
configs=""
for c in ${CONFIGS:-acs-lloyd-amos}; do configs="$configs -config $c"; done
if [ -n "${INSTANCES:-}" ]; then
	echo "== instances $INSTANCES, the first ${PER_CLASS:-10} of each class, $runs_each runs each"
	# shellcheck disable=SC2086 # configs is a list of flags
	nice "$work/benchacs" -sudoku-acs "$work/sudokusolver" -instances "$INSTANCES" -limit "${PER_CLASS:-10}" -runs "$runs_each" $configs -o "${OUT:-$work}/instances.tsv"
	echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
	exit 0
fi
# A count of 0 skips that part (benchacs would read -limit 0 as every puzzle).
if [ "$runs_escargot" -gt 0 ]; then
	echo "== AI Escargot, $runs_escargot runs each"
	# shellcheck disable=SC2086 # configs is a list of flags
	nice "$work/benchacs" -sudoku-acs "$work/sudokusolver" -grid "$escargot" -runs "$runs_escargot" $configs -o "${OUT:-$work}/escargot.tsv"
	echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo
fi
if [ "$puzzles" -gt 0 ]; then
	echo "== the first $puzzles puzzles of $(basename "$hardest"), $runs_each runs each"
	# shellcheck disable=SC2086
	nice "$work/benchacs" -sudoku-acs "$work/sudokusolver" -file "$hardest" -limit "$puzzles" -runs "$runs_each" $configs -o "${OUT:-$work}/hardest.tsv"
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
