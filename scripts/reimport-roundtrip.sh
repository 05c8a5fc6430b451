#!/usr/bin/env bash
# reimport-roundtrip.sh checks that the lab's own exports, imported back
# into it, change nothing it knows: it builds a lab from puzzle files
# (each into the collection named after it), rates every puzzle with every
# rater (sudokulab rate --rater all), freezes a collection of all of them
# in an order of its own with labels (collections add), tags some, then exports each
# collection and the whole lab in every format that holds ratings (csv,
# json) and imports each export into the same lab. After every import it
# compares every rating (all columns, values to the last digit), every
# collection and membership (position, label, metadata, source line) and
# the number of puzzles and every tag with what they were, and stops at
# the first difference, showing it; last it imports the whole lab's
# exports into new labs, which must get the same tags. Usage:
#
#   scripts/reimport-roundtrip.sh FILE...
#
# Environment: IMPORT_FLAGS (default --skip-invalid) are passed to the
# first imports; RATE_TIMEOUT (default 10s) bounds each rating (a rating
# cut short is not stored, which the check does not mind); JOBS (default
# 2) rating goroutines; KEEP=DIR keeps the lab, the exports and the
# snapshots in DIR (default: a temporary directory, removed).
set -euo pipefail

if [[ $# -lt 1 ]]; then
	echo "usage: $0 FILE..." >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
work=${KEEP:-$(mktemp -d)}
mkdir -p "$work/exports"
if [[ -z "${KEEP:-}" ]]; then
	trap 'rm -rf "$work"' EXIT
fi
bin="$work/sudokulab"
(cd "$root" && go build -o "$bin" ./cmd/sudokulab)
lab="$work/lab.db"
rm -f "$lab" "$lab-wal" "$lab-shm"
s() { "$bin" --db "$lab" "$@"; }

s init >/dev/null
# shellcheck disable=SC2086
s import ${IMPORT_FLAGS---skip-invalid} "$@"
s rate --rater all --timeout "${RATE_TIMEOUT:-10s}" --jobs "${JOBS:-2}" >/dev/null
s collections add roundtrip-frozen --where "1 = 1" --order-by "givens DESC" --label "'f' || id" \
	--description "every puzzle, hardest-looking first (reimport-roundtrip.sh)"
# Tags as a curator puts them on (serve --write), one with a comma and quotes.
s sql --write "INSERT INTO puzzle_tags (puzzle_id, tag) SELECT id, 'every-third' FROM puzzles WHERE id % 3 = 0" >/dev/null
s sql --write "INSERT INTO puzzle_tags (puzzle_id, tag) SELECT id, 'even, \"quoted\"' FROM puzzles WHERE id % 2 = 0" >/dev/null

# tags prints the lab's tags by grid (ids differ between labs).
tags() {
	"$bin" --db "$1" -O json sql "SELECT p.box_rows, p.box_cols, p.grid, t.tag FROM puzzle_tags t
		JOIN puzzles p ON p.id = t.puzzle_id ORDER BY p.box_rows, p.box_cols, p.grid, t.tag"
}

# snapshot prints what an import of the lab's own export must not change.
snapshot() {
	s -O json sql "SELECT puzzle_id, rater, rater_version, options, value, label, details, rated_at, import_id
		FROM ratings ORDER BY puzzle_id, rater"
	s -O json sql "SELECT c.name, c.description, c.frozen, c.created_at, cp.position, cp.puzzle_id, cp.label,
		cp.import_id, cp.source_line, cp.metadata, cp.added_at
		FROM collections c LEFT JOIN collection_puzzles cp ON cp.collection_id = c.id ORDER BY c.name, cp.position"
	s -O json sql "SELECT COUNT(*) AS puzzles FROM puzzles"
	s -O json sql "SELECT puzzle_id, tag, added_at, import_id FROM puzzle_tags ORDER BY puzzle_id, tag"
}
snapshot >"$work/before.json"
ratings=$(s -O csv sql "SELECT COUNT(*) FROM ratings" | tail -1)
imported=$(s -O csv sql "SELECT COUNT(*) FROM ratings WHERE import_id IS NOT NULL" | tail -1)
echo "lab: $(s -O csv sql "SELECT COUNT(*) FROM puzzles" | tail -1) puzzles, $ratings ratings ($imported from the files)"

mapfile -t collections < <(s -O csv collections list | tail -n +2 | cut -d, -f1)
n=0
for c in "${collections[@]}" ""; do
	for format in csv json; do
		if [[ -n "$c" ]]; then
			file="$work/exports/${c//[^A-Za-z0-9_.-]/_}.$format"
			s export --collection "$c" --format "$format" -o "$file" 2>/dev/null
		else
			file="$work/exports/whole-lab.$format"
			s export --where "1 = 1" --format "$format" -o "$file" 2>/dev/null
		fi
		s import "$file" >/dev/null
		snapshot >"$work/after.json"
		if ! cmp -s "$work/before.json" "$work/after.json"; then
			echo "importing $file (the export of ${c:-the whole lab}) changed the lab:" >&2
			diff "$work/before.json" "$work/after.json" | head -40 >&2
			exit 1
		fi
		n=$((n + 1))
	done
done
# The whole lab's export brings the same tags into a new lab.
tags "$lab" >"$work/tags-before.json"
for format in csv json; do
	fresh="$work/fresh-$format.db"
	rm -f "$fresh" "$fresh-wal" "$fresh-shm"
	"$bin" --db "$fresh" init >/dev/null
	"$bin" --db "$fresh" import "$work/exports/whole-lab.$format" >/dev/null
	tags "$fresh" >"$work/tags-after.json"
	if ! cmp -s "$work/tags-before.json" "$work/tags-after.json"; then
		echo "importing $work/exports/whole-lab.$format into a new lab gave other tags:" >&2
		diff "$work/tags-before.json" "$work/tags-after.json" | head -40 >&2
		exit 1
	fi
done
echo "ok: $n exports (${#collections[@]} collections and the whole lab, csv and json) imported back; no rating, collection, membership or tag changed; the whole lab's tags came into a new lab from csv and json"
