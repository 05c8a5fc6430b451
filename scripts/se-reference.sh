#!/usr/bin/env bash
# se-reference.sh compares the se rater (raters/se) with Sudoku Explainer's
# batch rater serate, as kept in SukakuExplainer, restricted to SE 1.2.1's
# techniques (--techs=1111111111010111011011011011000010100010111111), puzzle
# by puzzle: ER, EP and ED, and the time each takes. Usage:
#
#   scripts/se-reference.sh SUKAKUEXPLAINER_SRC [OUTDIR]
#
# SUKAKUEXPLAINER_SRC is a copy of SukakuExplainer's source (git clone
# https://github.com/SudokuMonster/SukakuExplainer). It is an Eclipse
# project: the script compiles it with the JDK's javac (-encoding
# ISO-8859-1) and copies its resources beside the classes.
#
# The puzzles are systematic samples (every k-th line) of the lists in
# ../shared/data/tdoku: EASY (default 500) each from the 17-clue and top1465
# lists, HARD (default 100) each from the two forum-hardest lists; N1905
# and N1106 set the two hard lists' sizes apart (a sample of 2n puzzles
# holds the sample of n: its even-numbered puzzles); set DATA to use other
# lists. For each list, serate (one thread) and
# `sudokulab rate --rater se --jobs 1` (with GOMAXPROCS=1: one thread, as
# serate's --threads=1) rate the same file one after the other, so both
# see the same machine; the report gives the agreement and
# the CPU seconds per puzzle of each, and OUTDIR keeps every rating and
# the differences (default: a temporary directory, removed). serate takes
# up to minutes per forum-hardest puzzle: with CACHE=DIR, serate's ratings
# are kept in DIR (one file per list, "puzzle<TAB>ER/EP/ED<TAB>technique")
# and a later run rates with serate only the puzzles of the sample DIR
# lacks; the agreement is then over the whole sample, the CPU times over
# the puzzles both programs rated in that run ("timed"). With CACHE and
# SERATE=0, serate rates nothing: the comparison is over the puzzles of
# each sample that the cache holds.
# docs/data/serate holds the ratings of the samples rated so far. LISTS
# (default all four) names the lists to rate by a part of their file
# names, e.g. LISTS="17_clue 1905", so that two invocations with different
# OUTDIRs can share the two cores.
set -euo pipefail

if [[ $# -lt 1 || ! -d "${1}/diuf/sudoku" ]]; then
	echo "usage: $0 SUKAKUEXPLAINER_SRC [OUTDIR]" >&2
	echo "SUKAKUEXPLAINER_SRC must be a copy of SukakuExplainer's source; get one with" >&2
	echo "  git clone https://github.com/SudokuMonster/SukakuExplainer" >&2
	exit 2
fi
src=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
data=${DATA:-$root/../shared/data/tdoku}
easy=${EASY:-500}
hard=${HARD:-100}
if [[ -n "${2:-}" ]]; then
	out=$2
	mkdir -p "$out"
else
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
fi
techs=1111111111010111011011011011000010100010111111

classes=$out/classes
if [[ "${SERATE:-1}" != 0 ]]; then
	echo "building SukakuExplainer from $src ($(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo 'no git'))" >&2
	rm -rf "$classes" && mkdir -p "$classes"
	(cd "$src" && find . -name '*.java' >"$out/sources.txt")
	(cd "$src" && javac -nowarn -encoding ISO-8859-1 -d "$classes" @"$out/sources.txt") 2>&1 | grep -v '^Note:' >&2 || true
	(cd "$src" && find diuf -type f ! -name '*.java' | while read -r f; do
		mkdir -p "$classes/$(dirname "$f")" && cp "$f" "$classes/$f"
	done)
fi
echo "building sudokulab" >&2
(cd "$root" && go build -o "$out/sudokulab" ./cmd/sudokulab)

# sample prints n puzzles of list, every (lines/n)-th line.
sample() {
	grep -v '^#' "$1" | grep -v '^[[:space:]]*$' | awk -v n="$2" \
		'{l[NR] = $0} END {step = NR / n; for (i = 0; i < n; i++) print substr(l[int(i * step) + 1], 1, 81)}'
}

# cpu runs a command with its output to $2 and prints its user+system
# CPU seconds and its wall seconds.
cpu() {
	local t=$out/time.txt
	/usr/bin/time -f '%U %S %e' -o "$t" "${@:3}" >"$2"
	awk '{print $1 + $2, $3}' "$t"
}

lists=(puzzles2_17_clue.txt:$easy puzzles3_magictour_top1465.txt:$easy
	puzzles5_forum_hardest_1905_11+.txt:${N1905:-$hard} puzzles6_forum_hardest_1106.txt:${N1106:-$hard})
printf '%-36s %7s %7s %7s %7s %6s %13s %13s %8s %8s\n' list puzzles ER EP ED timed "serate cpu/pz" "se cpu/pz" "cpu x" "wall x"
for entry in "${lists[@]}"; do
	list=${entry%%:*} n=${entry##*:}
	[[ $n -gt 0 ]] || continue
	if [[ -n "${LISTS:-}" ]]; then
		keep=0
		for want in $LISTS; do [[ $list == *"$want"* ]] && keep=1; done
		[[ $keep == 1 ]] || continue
	fi
	name=${list%.txt}
	sample "$data/$list" "$n" >"$out/$name.txt"
	cache=${CACHE:+$CACHE/$name.serate.tsv}
	if [[ "${SERATE:-1}" == 0 ]]; then
		[[ -n "$cache" ]] || { echo "SERATE=0 needs CACHE" >&2; exit 2; }
		# Only the puzzles serate has rated.
		awk -F'\t' 'NR == FNR {seen[$1] = 1; next} ($1 in seen)' "$cache" "$out/$name.txt" >"$out/$name.cached.txt"
		mv "$out/$name.cached.txt" "$out/$name.txt"
		n=$(wc -l <"$out/$name.txt")
	fi
	rm -f "$out/$name.diff"
	# With CACHE, serate rates only the puzzles its cache file lacks (and
	# adds them to it); the agreement is over the whole sample, the CPU
	# times over the puzzles both rated in this run.
	if [[ -n "$cache" && -s "$cache" ]]; then
		awk -F'\t' 'NR == FNR {seen[$1] = 1; next} !($1 in seen)' "$cache" "$out/$name.txt" >"$out/$name.todo.txt"
		awk -F'\t' 'NR == FNR {seen[$1] = 1; next} ($1 in seen)' "$cache" "$out/$name.txt" >"$out/$name.known.txt"
	else
		cp "$out/$name.txt" "$out/$name.todo.txt"
		: >"$out/$name.known.txt"
	fi
	timed=$(wc -l <"$out/$name.todo.txt")
	serate_cpu="0 0" se_cpu="0 0"
	: >"$out/$name.serate.new.tsv"
	: >"$out/$name.se.todo.csv"
	if [[ $timed -gt 0 ]]; then
		serate_cpu=$(cpu serate "$out/$name.serate.new.tsv" nice java -Xmx1g -cp "$classes" diuf.sudoku.test.serate \
			--techs=$techs --threads=1 --format='%g	%r/%p/%d	%R' --input="$out/$name.todo.txt")
		se_cpu=$(GOMAXPROCS=1 cpu se "$out/$name.se.todo.csv" nice "$out/sudokulab" rate --rater se --jobs 1 --timeout 0 -O csv "$out/$name.todo.txt" 2>"$out/$name.se.log")
		if [[ -n "$cache" ]]; then
			mkdir -p "$CACHE"
			cat "$out/$name.serate.new.tsv" >>"$cache"
		fi
	fi
	: >"$out/$name.se.known.csv"
	if [[ -s "$out/$name.known.txt" ]]; then
		"$out/sudokulab" rate --rater se --timeout 0 -O csv "$out/$name.known.txt" >"$out/$name.se.known.csv" 2>>"$out/$name.se.log"
	fi
	# Ours as "puzzle<TAB>ER/EP/ED": rate's CSV rows come in input order,
	# se_label (ER/EP/ED) in the 8th column.
	for part in todo known; do
		tail -n +2 "$out/$name.se.$part.csv" | cut -d, -f8 | paste "$out/$name.$part.txt" -
	done | grep -v '^	*$' >"$out/$name.se.tsv" || true
	# Join on the puzzle: serate's line is "puzzle<TAB>ER/EP/ED<TAB>technique".
	awk -F'\t' 'FILENAME == ref {want[$1] = $2; tech[$1] = $3; next}
		FILENAME == ours {got[$1] = $2; next}
		{p = $1; split(want[p], w, "/"); split(got[p], g, "/")
			er += (w[1] != "" && w[1] == g[1]); ep += (w[2] != "" && w[2] == g[2]); ed += (w[3] != "" && w[3] == g[3])
			if (want[p] == "" || want[p] != got[p]) print p "\tserate " want[p] " (" tech[p] ")\tse " got[p] > diff}
		END {print er + 0, ep + 0, ed + 0}' ref="${cache:-$out/$name.serate.new.tsv}" ours="$out/$name.se.tsv" diff="$out/$name.diff" \
		"${cache:-$out/$name.serate.new.tsv}" "$out/$name.se.tsv" "$out/$name.txt" >"$out/$name.agree"
	read -r er ep ed <"$out/$name.agree"
	echo "$name $n $er $ep $ed $timed $serate_cpu $se_cpu" | awk '{
		if ($6 > 0 && $9 > 0 && $10 > 0) {
			cpu = sprintf("%12.3fs %12.4fs %7.1fx %7.1fx", $7 / $6, $9 / $6, $7 / $9, $8 / $10)
		} else {
			cpu = sprintf("%13s %13s %8s %8s", "-", "-", "-", "-")
		}
		printf "%-36s %7d %6.1f%% %6.1f%% %6.1f%% %6d %s\n", $1, $2, 100 * $3 / $2, 100 * $4 / $2, 100 * $5 / $2, $6, cpu}'
	cat "$out/$name.diff" 2>/dev/null | sed 's/^/  differs: /' >&2 || true
done
echo "ratings and differences (*.diff) in $out" >&2
