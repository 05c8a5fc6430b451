#!/usr/bin/env bash
# save-scoreboard.sh writes docs/data/scoreboard.db.gz, the runs behind
# docs/reproduction.md's scoreboard, from the labs SRC... that the
# reproduction scripts (scripts/reproduce-*.sh, scripts/kennett.sh) recorded:
#
#   scripts/save-scoreboard.sh SRC...
#
# The sources are merged into a new lab; the trajectories, the sample runs
# of lab.db.example (experiment example-samples, which every lab made with
# init --from has) and the work queue are left out, and the result is
# vacuumed and gzipped (gzip -9n). scripts/load-scoreboard.sh loads it.
set -euo pipefail
[ $# -ge 1 ] || {
	echo "usage: scripts/save-scoreboard.sh SRC..." >&2
	exit 2
}
srcs=()
for s in "$@"; do srcs+=("$(realpath "$s")"); done
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "${BIN:-}" ]; then # BIN: a sudokulab binary to use instead of building one
	BIN=$tmp/sudokulab
	go build -o "$BIN" ./cmd/sudokulab
fi
out=$tmp/scoreboard.db
lab() { "$BIN" --db "$out" "$@" >/dev/null; }
lab init
"$BIN" --db "$out" merge --fail-on-conflict "${srcs[@]}" >&2
samples="SELECT id FROM experiments WHERE name = 'example-samples'"
lab sql --write "DELETE FROM trajectory_points"
lab sql --write "DELETE FROM work"
lab sql --write "DELETE FROM experiment_runs WHERE experiment_id IN ($samples)"
lab sql --write "DELETE FROM runs WHERE id NOT IN (SELECT run_id FROM experiment_runs)"
lab sql --write "DELETE FROM experiments WHERE name = 'example-samples'"
lab sql --write "VACUUM"
mkdir -p docs/data
gzip -9n <"$out" >docs/data/scoreboard.db.gz.tmp
mv docs/data/scoreboard.db.gz.tmp docs/data/scoreboard.db.gz
"$BIN" --db "$out" -O csv sql "SELECT count(*) AS runs, count(DISTINCT config_id) AS configs FROM runs" >&2
ls -l docs/data/scoreboard.db.gz >&2
