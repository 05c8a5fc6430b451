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
# lists, HARD (default 100) each from the two forum-hardest lists; set
# DATA to use other lists. For each list, serate (one thread) and
# `sudokulab rate --rater se --jobs 1` (with GOMAXPROCS=1: one thread, as
# serate's --threads=1) rate the same file one after the other, so both
# see the same machine; the report gives the agreement and
# the CPU seconds per puzzle of each, and OUTDIR keeps every rating and
# the differences (default: a temporary directory, removed). serate takes
# up to minutes per forum-hardest puzzle: with REUSE=1 a serate result
# already in OUTDIR is used again instead of rated anew (the report says
# so). LISTS (default all four) names the lists to rate by a part of their
# file names, e.g. LISTS="17_clue 1905", so that two invocations with
# different OUTDIRs can share the two cores.
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

echo "building SukakuExplainer from $src ($(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo 'no git'))" >&2
classes=$out/classes
rm -rf "$classes" && mkdir -p "$classes"
(cd "$src" && find . -name '*.java' >"$out/sources.txt")
(cd "$src" && javac -nowarn -encoding ISO-8859-1 -d "$classes" @"$out/sources.txt") 2>&1 | grep -v '^Note:' >&2 || true
(cd "$src" && find diuf -type f ! -name '*.java' | while read -r f; do
	mkdir -p "$classes/$(dirname "$f")" && cp "$f" "$classes/$f"
done)
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
	puzzles5_forum_hardest_1905_11+.txt:$hard puzzles6_forum_hardest_1106.txt:$hard)
printf '%-36s %7s %7s %7s %7s %13s %13s %8s %8s\n' list puzzles ER EP ED "serate cpu/pz" "se cpu/pz" "cpu x" "wall x"
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
	reused=""
	rm -f "$out/$name.diff"
	if [[ "${REUSE:-0}" == 1 && -s "$out/$name.serate.tsv" ]]; then
		reused=" (serate reused)"
		serate_cpu=$(cat "$out/$name.serate.cpu")
	else
		serate_cpu=$(cpu serate "$out/$name.serate.tsv" nice java -Xmx1g -cp "$classes" diuf.sudoku.test.serate \
			--techs=$techs --threads=1 --format='%g	%r/%p/%d	%R' --input="$out/$name.txt")
		echo "$serate_cpu" >"$out/$name.serate.cpu"
	fi
	se_cpu=$(GOMAXPROCS=1 cpu se "$out/$name.se.csv" nice "$out/sudokulab" rate --rater se --jobs 1 --timeout 0 -O csv "$out/$name.txt" 2>"$out/$name.se.log")
	# Join on the puzzle: serate's line is "puzzle<TAB>ER/EP/ED<TAB>technique",
	# ours a CSV row whose se_label is ER/EP/ED.
	awk -F'\t' 'NR == FNR {want[FNR] = $2; tech[FNR] = $3; pz[FNR] = $1; next}
		FNR > 1 {split($0, f, ","); got = f[8]; i = FNR - 1
			split(want[i], w, "/"); split(got, g, "/")
			er += (w[1] == g[1]); ep += (w[2] == g[2]); ed += (w[3] == g[3])
			if (want[i] != got) print pz[i] "\tserate " want[i] " (" tech[i] ")\tse " got > diff}
		END {print er, ep, ed}' diff="$out/$name.diff" "$out/$name.serate.tsv" "$out/$name.se.csv" >"$out/$name.agree"
	read -r er ep ed <"$out/$name.agree"
	echo "$name $n $er $ep $ed $serate_cpu $se_cpu" | awk -v reused="$reused" '{
		printf "%-36s %7d %6.1f%% %6.1f%% %6.1f%% %12.3fs %12.4fs %7.1fx %7.1fx%s\n", $1, $2,
			100 * $3 / $2, 100 * $4 / $2, 100 * $5 / $2, $6 / $2, $8 / $2, $6 / $8, $7 / $9, reused}'
	cat "$out/$name.diff" 2>/dev/null | sed 's/^/  differs: /' >&2 || true
done
echo "ratings and differences (*.diff) in $out" >&2
