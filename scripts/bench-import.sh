#!/usr/bin/env bash
# bench-import.sh times `sudokulab import` of a puzzle list into a fresh lab
# against the yardstick of issue 15 -- `sqlite3 .import` of the same grids
# into a table with a UNIQUE grid column, plus tdoku counting the solutions
# of every puzzle -- in one run, alternating, for several rounds, and prints
# the median wall seconds of each with the ratio. Usage:
#
#   scripts/bench-import.sh TDOKU_SRC [ROUNDS] [LIST]
#
# TDOKU_SRC is a copy of tdoku's source (git clone https://github.com/t-dillon/tdoku);
# ROUNDS defaults to 5; LIST to ../shared/data/tdoku/puzzles2_17_clue.txt.
# It needs the sqlite3 shell (Debian: apt-get install sqlite3).
#
# Two more columns put the lab's own store in scale: "store alone" is the
# time of two INSERT ... SELECT statements copying the rows our import
# wrote -- grids, solutions and symmetry forms read back from it -- from a
# temporary table into a fresh lab's schema (puzzles and collection_puzzles
# with all their indexes), foreign keys off, in one transaction: SQLite's
# own work, without counting, symmetry forms or the import's bookkeeping.
# The sqlite3 shell times it in C SQLite (.timer), scripts/storefloor in
# modernc.org/sqlite, the pure-Go SQLite the lab uses. Our import is timed
# as users run it, pauses of its pacer (db/pace.go) included.
#
# sudokulab is built with GOEXPERIMENT=simd, so that import counts with the
# triad engine on an amd64 processor with AVX2 (see solvers/exact); SIMD=0
# builds it without.
set -euo pipefail

if [[ $# -lt 1 ]]; then
	echo "usage: $0 TDOKU_SRC [ROUNDS] [LIST]" >&2
	exit 2
fi
if ! command -v sqlite3 >/dev/null; then
	echo "$0: the sqlite3 shell is missing (Debian: apt-get install sqlite3)" >&2
	exit 2
fi
rounds=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
list=${3:-$root/../shared/data/tdoku/puzzles2_17_clue.txt}
list=$(cd "$(dirname "$list")" && pwd)/$(basename "$list")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$root/scripts/build-tdoku-bench" "$1" "$work/tdoku_bench"
echo "building sudokulab" >&2
experiment=simd
[[ "${SIMD:-1}" = 1 ]] || experiment=
(cd "$root" && GOEXPERIMENT=$experiment go build -o "$work/sudokulab" ./cmd/sudokulab && go build -o "$work/storefloor" ./scripts/storefloor)

# The grids alone, one per line, for .import.
grep -v '^#' "$list" | cut -c1-81 >"$work/grids.txt"
n=$(wc -l <"$work/grids.txt")

# now prints the time in seconds; since prints the seconds since $1.
now() { date +%s.%N; }
since() { awk "BEGIN{printf \"%.3f\", $(now) - $1}"; }

# median prints the median of its arguments.
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }

declare -A t
for ((r = 1; r <= rounds; r++)); do
	rm -f "$work/anchor.db"
	s=$(now)
	sqlite3 "$work/anchor.db" "CREATE TABLE puzzles (grid TEXT UNIQUE);" ".import $work/grids.txt puzzles"
	t[import]+=" $(since "$s")"

	s=$(now)
	"$work/tdoku_bench" 2 "$list" 1 >"$work/tdoku.out"
	t[tdoku]+=" $(since "$s")"

	rm -rf "$work/lab" && mkdir "$work/lab"
	(cd "$work/lab" && "$work/sudokulab" init >/dev/null)
	s=$(now)
	(cd "$work/lab" && "$work/sudokulab" import "$list" >/dev/null)
	t[ours]+=" $(since "$s")"

	# The store alone: the rows our import wrote, into a fresh lab's schema,
	# by C SQLite (the sqlite3 shell) and by pure-Go SQLite (storefloor),
	# timing the two INSERT ... SELECT statements only.
	sqlite3 -csv "$work/lab/lab.db" "SELECT grid, size, box_rows, box_cols, givens, solution, solution_count,
		symmetry_form, import_id, count_status, count_seconds FROM puzzles ORDER BY id" >"$work/rows.csv"
	rm -rf "$work/floor" && mkdir "$work/floor"
	(cd "$work/floor" && "$work/sudokulab" init >/dev/null)
	out=$(sqlite3 "$work/floor/lab.db" <<EOF
PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=OFF;
CREATE TEMP TABLE t (grid TEXT, size INT, box_rows INT, box_cols INT, givens INT, solution TEXT,
	solution_count INT, symmetry_form TEXT, import_id INT, count_status TEXT, count_seconds REAL);
.mode csv
.import $work/rows.csv t
.timer on
BEGIN;
INSERT INTO puzzles (grid, size, box_rows, box_cols, givens, solution, solution_count, symmetry_form,
	import_id, count_status, count_seconds) SELECT * FROM t ORDER BY rowid;
INSERT INTO collection_puzzles (collection_id, puzzle_id, position, import_id, source_line)
	SELECT 1, id, id, 1, id FROM puzzles;
COMMIT;
EOF
	)
	t[c]+=" $(awk '/^Run Time: real/ {s += $4} END {printf "%.3f", s}' <<<"$out")"
	rm -rf "$work/floor" && mkdir "$work/floor"
	(cd "$work/floor" && "$work/sudokulab" init >/dev/null)
	out=$("$work/storefloor" "$work/floor/lab.db" "$work/rows.csv")
	t[go]+=" $(sed -n 's/^store_seconds=\([0-9.]*\) .*/\1/p' <<<"$out")"
	echo "round $r: .import ${t[import]##* } s, tdoku ${t[tdoku]##* } s, ours ${t[ours]##* } s; store alone: C ${t[c]##* } s, Go ${t[go]##* } s" >&2
done

i=$(median ${t[import]}) d=$(median ${t[tdoku]}) o=$(median ${t[ours]}) c=$(median ${t[c]}) g=$(median ${t[go]})
echo "date: $(date -u +%Y-%m-%dT%H:%MZ); $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg); rounds: $rounds (median); $n puzzles of $(basename "$list")"
echo
echo "| sqlite3 .import (s) | tdoku count (s) | yardstick (s) | sudokulab import (s) | ratio | store alone, C SQLite (s) | store alone, pure-Go SQLite (s) |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
awk -v i="$i" -v d="$d" -v o="$o" -v c="$c" -v g="$g" 'BEGIN {
	printf "| %.3f | %.3f | %.3f | %.3f | %.2fx | %.3f | %.3f |\n", i, d, i + d, o, o / (i + d), c, g }'
