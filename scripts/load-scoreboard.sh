#!/usr/bin/env bash
# load-scoreboard.sh loads the runs behind docs/reproduction.md's scoreboard,
# docs/data/scoreboard.db.gz, into the lab LAB (made from lab.db.example when
# it does not exist), so that `sudokulab --db LAB query
# reproduction-scoreboard` prints every cell with its runs on a fresh clone:
#
#   scripts/load-scoreboard.sh LAB
#
# The file is a gzipped sudokulab lab (SQLite) written by
# scripts/save-scoreboard.sh: the runs' outcomes (configuration, puzzle,
# seed, budget, status, effort in each unit, wall time, code version, host;
# no trajectories), with their puzzles, collections, configurations and
# experiments. It is loaded with `sudokulab merge`, which checks it whole
# before writing and matches rows by identity: loading twice changes
# nothing, and runs LAB already has are kept.
set -euo pipefail
[ $# -eq 1 ] || {
	echo "usage: scripts/load-scoreboard.sh LAB" >&2
	exit 2
}
LAB=$(realpath -m "$1")
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "${BIN:-}" ]; then # BIN: a sudokulab binary to use instead of building one
	BIN=$tmp/sudokulab
	go build -o "$BIN" ./cmd/sudokulab
fi
[ -e "$LAB" ] || "$BIN" --db "$LAB" init --from lab.db.example
gzip -dc docs/data/scoreboard.db.gz >"$tmp/scoreboard.db"
# The file keeps the schema it was saved at; a newer sudokulab merges only
# from a database at its own version, so the copy is migrated first.
"$BIN" --db "$tmp/scoreboard.db" migrate up >/dev/null
"$BIN" --db "$LAB" merge "$tmp/scoreboard.db"
