#!/usr/bin/env bash
# scale-lab-pg.sh puts the scale lab of scripts/scale-lab.sh into a
# PostgreSQL database by the product's own path: `sudokulab init` on the
# URL, then `sudokulab merge` of the SQLite lab (only read), timed, then
# ANALYZE, so that the planner knows the tables' sizes before the pages
# are measured (autovacuum would do it too, a while later). Usage:
#
#   scripts/scale-lab-pg.sh postgres://USER@HOST:PORT/DB LAB.db
#
# The database should be new (init creates it if the role may). On the
# 2-core build machine, niced among other jobs (load 11), the merge of the
# 1,000,000-puzzle, 1,000,318-run lab into a local PostgreSQL 15 took
# 15 min 33 s (docs/web.md, How fast: PostgreSQL). The web benchmark then
# reads it with
#
#   SUDOKULAB_SCALE_LAB=postgres://... go test ./web -run '^$' -bench Pages -benchtime 200x
set -euo pipefail

if [[ $# -ne 2 ]]; then
	echo "usage: $0 postgres://USER@HOST:PORT/DB LAB.db" >&2
	exit 2
fi
url=$1 lab=$2
[[ -f $lab ]] || { echo "$0: $lab: no such file" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin=$(mktemp /tmp/sudokulab.XXXXXX)
trap 'rm -f "$bin"' EXIT
go build -o "$bin" ./cmd/sudokulab
"$bin" --db "$url" init
start=$(date +%s)
"$bin" --db "$url" merge "$lab"
echo "merged $lab in $(( $(date +%s) - start )) s"
"$bin" --db "$url" sql --write 'ANALYZE'
