#!/usr/bin/env bash
# bench-exact.sh times the exact solver (solvers/exact) against tdoku on the
# four tdoku lists in ../shared/data/tdoku, in one run, alternating the two
# solvers list by list for several rounds, and prints the median CPU
# microseconds per puzzle (count to 2 and first solution) and the guesses
# per puzzle of each, with the ratio. Usage:
#
#   scripts/bench-exact.sh TDOKU_SRC [ROUNDS]
#
# TDOKU_SRC is a copy of tdoku's source (git clone https://github.com/t-dillon/tdoku);
# ROUNDS defaults to 5. tdoku's solver is built with g++ -O3 -march=native
# and driven by scripts/tdoku_bench.cc; ours by cmd/benchexact. Both run
# under nice, one at a time. Set DATA to use other lists, and OURS to a
# benchexact binary built elsewhere (an older tree, say) to time that one.
#
# Ours is exact.Count (benchexact -engine count), built with
# GOEXPERIMENT=simd: on an amd64 processor with AVX2 that is the triad
# engine (solvers/exact/internal/triad). ENGINE=solve times exact.Solve, the
# rating engine, instead; SIMD=0 builds without the experiment (Count then
# runs Solve's engine).
set -euo pipefail

if [[ $# -lt 1 ]]; then
	echo "usage: $0 TDOKU_SRC [ROUNDS]" >&2
	exit 2
fi
rounds=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
data=${DATA:-$root/../shared/data/tdoku}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$root/scripts/build-tdoku-bench" "$1" "$work/tdoku_bench"
if [[ -n "${OURS:-}" ]]; then
	cp "$OURS" "$work/benchexact"
else
	echo "building cmd/benchexact" >&2
	if [[ "${SIMD:-1}" = 1 ]]; then
		(cd "$root" && GOEXPERIMENT=simd go build -o "$work/benchexact" ./cmd/benchexact)
	else
		(cd "$root" && go build -o "$work/benchexact" ./cmd/benchexact)
	fi
fi

lists=(puzzles2_17_clue.txt puzzles3_magictour_top1465.txt
	puzzles5_forum_hardest_1905_11+.txt puzzles6_forum_hardest_1106.txt)

# field prints the value of key=value in a result line.
field() { tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"; }

# median prints the median of its arguments.
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }

declare -A cpu guesses
for ((r = 1; r <= rounds; r++)); do
	for list in "${lists[@]}"; do
		for limit in 2 1; do
			ours=$(nice "$work/benchexact" -engine "${ENGINE:-count}" -limit "$limit" "$data/$list")
			theirs=$(nice "$work/tdoku_bench" "$limit" "$data/$list")
			cpu[ours,$list,$limit]+=" $(field cpu_us_per_puzzle "$ours")"
			cpu[tdoku,$list,$limit]+=" $(field cpu_us_per_puzzle "$theirs")"
			guesses[ours,$list,$limit]=$(field decisions_per_puzzle "$ours")
			guesses[tdoku,$list,$limit]=$(field guesses_per_puzzle "$theirs")
			echo "round $r $list limit $limit: ours $ours | tdoku $theirs" >&2
		done
	done
done

echo "date: $(date -u +%Y-%m-%dT%H:%MZ); $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg); rounds: $rounds (median); our engine: $(field engine "$ours")"
echo
echo "| list | count to 2: ours / tdoku (us) | ratio | first solution: ours / tdoku (us) | ratio | decisions per puzzle (count to 2): ours / tdoku |"
echo "| --- | --- | --- | --- | --- | --- |"
for list in "${lists[@]}"; do
	o2=$(median ${cpu[ours,$list,2]}); t2=$(median ${cpu[tdoku,$list,2]})
	o1=$(median ${cpu[ours,$list,1]}); t1=$(median ${cpu[tdoku,$list,1]})
	printf '| %s | %.2f / %.2f | %.2fx | %.2f / %.2f | %.2fx | %.1f / %.1f |\n' "${list%.txt}" \
		"$o2" "$t2" "$(awk "BEGIN{print $o2/$t2}")" "$o1" "$t1" "$(awk "BEGIN{print $o1/$t1}")" \
		"${guesses[ours,$list,2]}" "${guesses[tdoku,$list,2]}"
done
