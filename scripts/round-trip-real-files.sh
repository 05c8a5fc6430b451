#!/usr/bin/env bash
# round-trip-real-files.sh builds a lab from five puzzle files written by
# others (cmd/sudokulab/testdata/real: the forum's hardest database with its
# #!sudoku header and ER/EP/ED, q1/q2, Sx9/Sxt ratings, an OpenSudoku XML
# file, a CSV whose columns are named unsolved,solved and Sudoku Exchange's
# <id> <puzzle> <rating> lines; and HoDoKu's reglib-1.4.txt from
# importers/testdata/hodoku), rates it with every rater, exports every
# collection in csv, json, line and its own file's format, imports each export
# into the same lab, and checks that:
#   - each collection holds its file's puzzles in the file's order;
#   - each rating a file gives is in the lab under the rater its column
#     names, with the file's value, and nothing else is imported as a
#     rating (after the import, after rating, after the re-imports);
#   - the re-imports change no rating and no collection;
#   - an export imported into a new collection gives the original's
#     puzzles in its order with their labels and metadata.
# The files are read here by a Python reader of its own (standard library
# only), not by sudokulab's importers, and compared with what
# `sudokulab sql` reads from the lab. It prints PASS or FAIL per check and
# exits 1 if any failed. The lab lives in a temporary folder, removed at
# the end (KEEP=1 keeps it and says where).
#
#   scripts/round-trip-real-files.sh
#   RATE_TIMEOUT=0 scripts/round-trip-real-files.sh   # no limit: se rates the forum's hardest too (minutes)
#
# RATE_TIMEOUT (default 2s) bounds each rater on each puzzle; a rating cut
# short is not stored (rate says how many), which bounds the run: with 2s
# the se rater leaves out the forum's hardest puzzles (5-40 s each), and the
# whole script takes about a minute of CPU on two cores.
set -uo pipefail
cd "$(dirname "$0")/.."
data=cmd/sudokulab/testdata/real
forum=$data/HardestDatabase110626.txt
hodoku=importers/testdata/hodoku/reglib-1.4.txt
opensudoku=$data/Medium.opensudoku
csv=$data/sudoku.csv
exchange=$data/diabolical.txt
rate_timeout=${RATE_TIMEOUT:-2s}

tmp=$(mktemp -d)
if [ "${KEEP:-}" = 1 ]; then
	trap 'echo "lab kept in $tmp"' EXIT
else
	trap 'rm -rf "$tmp"' EXIT
fi
go build -o "$tmp/sudokulab" ./cmd/sudokulab || exit 1
lab() { "$tmp/sudokulab" --db "$tmp/lab.db" "$@"; }
sql() { lab -O csv sql "$1"; }

failed=0
# check NAME COMMAND...: runs the command, PASS or FAIL with its output.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		echo "PASS $name${out:+: $out}"
	else
		echo "FAIL $name"
		printf '%s\n' "$out" | sed 's/^/    /'
		failed=$((failed + 1))
	fi
}
# must COMMAND...: a step the checks need; its failure ends the script.
must() {
	if ! "$@" > "$tmp/step.out" 2>&1; then
		echo "FAIL $*"
		sed 's/^/    /' "$tmp/step.out"
		exit 1
	fi
}

# The independent reader: each file's puzzles in order, and the ratings it
# gives, keyed by the lab's 81-character grid ('.' for a blank).
cat > "$tmp/files.py" <<'EOF'
import csv, json, re, sys

def grid(s):
    s = s.strip().replace("0", ".")
    if len(s) != 81 or any(c not in ".123456789" for c in s):
        raise ValueError("not a 9x9 puzzle: %r" % s)
    return s

def number(s):
    try:
        return float(s)
    except ValueError:
        return None

# Rater names of the forum list's columns (docs/schema.md, imports).
FORUM = {"q1": "gsf-q1", "q2": "gsf-q2", "ER": "se-er", "EP": "se-ep", "ED": "se-ed",
         "Sx9": "suexrat9", "Sxt": "suexratt"}

def forum(path):
    """gsf's #!sudoku list: '-cNC' puts the puzzle in column N of fields
    separated by C, then the names of all columns."""
    puzzles, ratings, header = [], [], None
    with open(path, newline="") as f:
        for line in f.read().splitlines():
            if line.startswith("#!sudoku"):
                opts = line[len("#!sudoku"):].strip()
                m = re.match(r"-c(\d+)(.)", opts)
                col, sep = int(m.group(1)) - 1, m.group(2)
                header = opts[m.end():].split(sep)
                continue
            if header is None or not line.strip() or line.startswith("#"):
                continue  # the title line before the header
            fields = line.split(sep)
            g = grid(fields[col])
            puzzles.append(g)
            for name, value in zip(header, fields):
                if name in FORUM and number(value) is not None:
                    ratings.append((g, FORUM[name], number(value)))
    return puzzles, ratings

def hodoku(path):
    """HoDoKu library lines :technique:candidates:givens:...; a digit after
    '+' was placed, not given."""
    puzzles = []
    with open(path, newline="") as f:
        for line in f.read().splitlines():
            if line.startswith(":"):
                cells = re.findall(r"\+?[0-9.]", line.split(":")[3])
                puzzles.append(grid("".join("." if c.startswith("+") else c for c in cells)))
    return puzzles, []

def opensudoku(path):
    with open(path) as f:
        return [grid(d) for d in re.findall(r'<game\s+data="([0-9]{81})"', f.read())], []

def unsolved_solved(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return [grid(r["unsolved"]) for r in rows], []

def exchange(path, rater):
    puzzles, ratings = [], []
    with open(path) as f:
        for line in f:
            ident, puzzle, rating = line.split()
            puzzles.append(grid(puzzle))
            ratings.append((grid(puzzle), rater, float(rating)))
    return puzzles, ratings

def read_files(spec):
    """spec: FILE=KIND[:RATER] in import order."""
    out = []
    for item in spec:
        path, kind = item.split("=", 1)
        kind, _, rater = kind.partition(":")
        if kind == "exchange":
            out.append((path, *exchange(path, rater)))
        else:
            out.append((path, *{"forum": forum, "hodoku": hodoku, "opensudoku": opensudoku,
                                "csv": unsolved_solved}[kind](path)))
    return out

def lab_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))

def claims(files, dump):
    """Every rating a file gives is stored under its rater with the file's
    value (the first file's, and the first line's, when a puzzle comes
    again), from that file's import; no other rating is imported."""
    want = {}
    for path, _, ratings in files:
        for g, rater, value in ratings:
            want.setdefault((g, rater), (value, path.rsplit("/", 1)[-1]))
    got = {(r["grid"], r["rater"]): (float(r["value"]), r["file_name"].rsplit("/", 1)[-1]) for r in lab_rows(dump)}
    bad = []
    for key in sorted(set(want) | set(got)):
        if want.get(key) != got.get(key):
            bad.append("%s %s: the file says %s, the lab has %s" % (key[0], key[1], want.get(key), got.get(key)))
    if bad:
        print("\n".join(bad[:20] + (["... %d more" % (len(bad) - 20)] if len(bad) > 20 else [])))
        return 1
    per = {}
    for _, rater in want:
        per[rater] = per.get(rater, 0) + 1
    print("%d ratings (%s)" % (len(want), ", ".join("%s %d" % kv for kv in sorted(per.items()))))
    return 0

def members(files, dump):
    """Each file's collection holds its puzzles in file order (a puzzle that
    comes again in one file keeps its first place)."""
    rows = lab_rows(dump)
    bad, total = [], 0
    for (path, puzzles, _), name in zip(files, NAMES):
        first = list(dict.fromkeys(puzzles))
        got = [r["grid"] for r in rows if r["collection"] == name]
        total += len(got)
        if got != first:
            bad.append("%s: collection %s holds %d puzzles, the file %d distinct (first difference at %s)" % (
                path, name, len(got), len(first),
                next((i + 1 for i, (a, b) in enumerate(zip(got, first)) if a != b), min(len(got), len(first)) + 1)))
    if bad:
        print("\n".join(bad))
        return 1
    print("%d puzzles in %d collections" % (total, len(files)))
    return 0

if __name__ == "__main__":
    what, dump = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    NAMES = [a.split("@", 1)[1] for a in args]
    files = read_files([a.split("@", 1)[0] for a in args])
    sys.exit({"claims": claims, "members": members}[what](files, dump))
EOF

# The files in import order, each FILE=KIND[:RATER]@COLLECTION.
files=("$forum=forum@HardestDatabase110626" "$hodoku=hodoku@reglib-1.4" "$opensudoku=opensudoku@Hodoku Medium"
	"$csv=csv@sudoku" "$exchange=exchange:exchange@diabolical")
collections=(HardestDatabase110626 reglib-1.4 "Hodoku Medium" sudoku diabolical)
native=(csv hodoku-lib opensudoku csv line)
# formats I: csv, json, line and the own format of collection I, each once.
formats() { printf '%s\n' csv json line "${native[$1]}" | awk '!seen[$0]++'; }

claims() {
	sql "SELECT p.grid, r.rater, r.value, i.file_name FROM ratings r JOIN puzzles p ON p.id = r.puzzle_id
		JOIN imports i ON i.id = r.import_id WHERE r.import_id IS NOT NULL" > "$tmp/claims.csv" || return 1
	python3 "$tmp/files.py" claims "$tmp/claims.csv" "${files[@]}"
}
members() {
	sql "SELECT collection, grid FROM puzzle_catalog ORDER BY collection, position" > "$tmp/members.csv" || return 1
	python3 "$tmp/files.py" members "$tmp/members.csv" "${files[@]}"
}
# state: every rating and every collection with its members, in order.
state() {
	sql "SELECT p.grid, r.rater, r.rater_version, r.options, r.value, r.label, r.details, r.rated_at, r.import_id
		FROM ratings r JOIN puzzles p ON p.id = r.puzzle_id ORDER BY p.grid, r.rater" &&
		sql "SELECT c.name, c.description, c.frozen, c.created_at, cp.position, p.grid, cp.label, cp.import_id,
			cp.source_line, cp.metadata, cp.added_at
		FROM collections c LEFT JOIN collection_puzzles cp ON cp.collection_id = c.id LEFT JOIN puzzles p ON p.id = cp.puzzle_id
		ORDER BY c.name, cp.position" &&
		sql "SELECT COUNT(*) AS puzzles FROM puzzles"
}
same() { # same FILE FILE: no difference, or the first lines of it
	diff "$1" "$2" > "$tmp/diff" && return 0
	head -20 "$tmp/diff"
	return 1
}
# collection NAME: its puzzles in order with their labels and metadata.
collection() {
	sql "SELECT cp.position, p.grid, cp.label, cp.metadata FROM collection_puzzles cp
		JOIN collections c ON c.id = cp.collection_id JOIN puzzles p ON p.id = cp.puzzle_id
		WHERE c.name = '$1' ORDER BY cp.position"
}
# same_collection NAME COPY: the copy holds what the collection holds.
same_collection() {
	collection "$1" > "$tmp/original" && collection "$2" > "$tmp/copy" || return 1
	[ "$(wc -l < "$tmp/original")" -gt 1 ] || { echo "collection $1 is empty"; return 1; }
	same "$tmp/original" "$tmp/copy"
}

must lab init
must lab import "$forum"
must lab import "$hodoku"
must lab import "$opensudoku"
must lab import "$csv"
must lab import --rating-column field1=exchange "$exchange"
check "each collection holds its file's puzzles in order" members
check "the files' ratings are in the lab as the files give them" claims

echo "rate --rater all --timeout $rate_timeout:"
lab rate --rater all --jobs 2 --timeout "$rate_timeout" 2> "$tmp/rate.err" | sed 's/^/    /'
grep -v '^rate [0-9]' "$tmp/rate.err" | sed 's/^/    /'
check "the files' ratings are as they were after rating" claims
state > "$tmp/before" || { echo "FAIL reading the lab"; exit 1; }

mkdir "$tmp/exports"
for i in "${!collections[@]}"; do
	c=${collections[$i]}
	for format in $(formats "$i"); do
		out="$tmp/exports/$i.$format"
		must lab export --collection "$c" --format "$format" -o "$out"
		must lab import --collection "$c" --format "$format" "$out"
	done
done
state > "$tmp/after"
check "importing each collection's exports (csv, json, line, own format) into it changes no rating and no collection" same "$tmp/before" "$tmp/after"
check "the files' ratings are as they were after the re-imports" claims

for i in "${!collections[@]}"; do
	c=${collections[$i]}
	for format in $(formats "$i"); do
		copy="copy $i $format"
		must lab import --collection "$copy" --format "$format" "$tmp/exports/$i.$format"
		check "$c exported as $format and imported as a new collection: the same puzzles, order, labels, metadata" same_collection "$c" "$copy"
	done
done
sql "SELECT p.grid, r.rater, r.rater_version, r.options, r.value, r.label, r.details, r.rated_at, r.import_id
	FROM ratings r JOIN puzzles p ON p.id = r.puzzle_id ORDER BY p.grid, r.rater" > "$tmp/ratings.after"
sed -n '1,/^name,description,frozen/p' "$tmp/before" | sed '$d' > "$tmp/ratings.before"
check "the copies change no rating" same "$tmp/ratings.before" "$tmp/ratings.after"

if [ "$failed" -gt 0 ]; then
	echo "$failed checks failed"
	exit 1
fi
echo "all checks passed"
