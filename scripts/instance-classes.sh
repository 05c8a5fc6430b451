#!/usr/bin/env bash
# instance-classes.sh makes the instance classes of the stochastic-solver
# literature (Lewis 2007; Lloyd and Amos 2019): random solved grids of
# 9x9, 16x16 and 25x25 with 40, 45 and 50 % of their cells given (the rest
# removed uniformly at random), COUNT puzzles per class, into collections
# class-<n>x<n>-<pct> of the lab DB, reproducibly from SEED. Instances of
# these classes need not have one solution: each is counted for at most
# COUNT_TIMEOUT, and a count that runs out is stored as undetermined (see
# docs/large-grids.md); the summary says how many of each class are unique.
#
#   scripts/instance-classes.sh                       # 100 per class into instance-classes.db
#   COUNT=10 SEED=7 DB=lab.db scripts/instance-classes.sh
#   SIZES="16 25" PCTS="45" scripts/instance-classes.sh
#
# Then, for example:
#   sudokulab --db instance-classes.db run --collection class-16x16-45 --config acs-lloyd-amos --timeout 10s --runs 5
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-100}
seed=${SEED:-1}
db=${DB:-instance-classes.db}
sizes=${SIZES:-9 16 25}
pcts=${PCTS:-40 45 50}
count_timeout=${COUNT_TIMEOUT:-1s}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/sudokulab" ./cmd/sudokulab
go build -o "$dir/mkinstances" ./cmd/mkinstances
lab() { "$dir/sudokulab" --db "$db" "$@"; }
[ -e "$db" ] || lab init > /dev/null

printf 'class\tpuzzles\tunique\tseveral\tundetermined\n'
for n in $sizes; do
	case $n in 9) order=3 ;; 16) order=4 ;; 25) order=5 ;; *) echo "SIZES: 9, 16 or 25, not $n" >&2; exit 2 ;; esac
	for pct in $pcts; do
		class="class-${n}x${n}-$pct"
		# One seed per class, the same for every run of the script with this SEED.
		cseed=$((seed * 1000000 + n * 1000 + pct))
		"$dir/mkinstances" -solutions random -order "$order" -given "0.$pct" -count "$count" -seed "$cseed" -o "$dir/$class" > /dev/null
		lab import "$dir/$class"/*.instance --collection "$class" --count-timeout "$count_timeout" > /dev/null 2> "$dir/$class.err" ||
			{ cat "$dir/$class.err" >&2; exit 1; }
		lab -O csv sql "SELECT COUNT(*), SUM(solution_count = 1), SUM(solution_count > 1), SUM(count_status = 'undetermined')
			FROM puzzle_catalog WHERE collection = '$class'" | tail -1 | tr ',' '\t' | sed "s/^/$class\t/"
	done
done
