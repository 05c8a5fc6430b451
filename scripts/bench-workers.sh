#!/bin/sh
# bench-workers.sh: a tuning's runs done by N sudokulab worker processes
# beside the racer (issue 35: with 2 workers, runs per second at least
# 1.8 times one worker's; the racer's own CPU under 5 % of the runs').
#
#   scripts/bench-workers.sh [BUDGET [MAX_EVALUATIONS]]
#
# For each N in WORKERS (default "1 2"), on a fresh copy of the same lab:
# N workers (worker --follow --jobs 1) start, then the racer (tune
# --jobs 0: it queues each race step and waits, doing no run) tunes the
# same solver on the same training puzzles with the same budget and seed,
# so both tunings race the same candidates and ask for the same runs.
# It prints, per N: the runs, the racer's wall time, runs per second over
# it, the runs' CPU (the sum of their recorded cpu_seconds), the workers'
# and the racer's process CPU (user + system), the racer's CPU as a share
# of the runs', how busy the workers were (the runs' wall time over N
# times the span from the first run's start to the last one's end: the
# rest they waited for work), and at the end the ratio of the runs per
# second of the last N to the first. Load averages are printed at the start and end:
# on a busy machine the workers share its cores with others, and the
# ratio says more about the load than about sudokulab.
#
# BUDGET is the tuning's runs (300), MAX_EVALUATIONS each run's budget
# (10000000, about 0.4 s of lewis-sa without propagation on a hard 9x9
# puzzle of top1465, so that one worker takes 1-2 minutes). The
# environment: WORKERS ("1 2"), SEED (1), LAB (a lab holding top1465;
# default: a new one imported from /work/shared/data/tdoku), NICE (10:
# every process runs under nice -n NICE).
set -eu

budget=${1:-300}
maxevals=${2:-10000000}
workers=${WORKERS:-"1 2"}
seed=${SEED:-1}
niceness=${NICE:-10}
root=$(cd "$(dirname "$0")/.." && pwd)
tick=$(getconf CLK_TCK)

work=$(mktemp -d)
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT
(cd "$root" && go build -o "$work/sudokulab" ./cmd/sudokulab)
sl="$work/sudokulab"
if [ -n "${LAB:-}" ]; then
	cp "$LAB" "$work/base.db"
else
	"$sl" --db "$work/base.db" init >/dev/null
	"$sl" --db "$work/base.db" import --collection top1465 /work/shared/data/tdoku/puzzles3_magictour_top1465.txt >/dev/null 2>&1
fi
train="collection = 'top1465' AND id % 20 = 0"

# cpu PID: the user + system CPU seconds of a running process.
cpu() {
	awk -v t="$tick" '{ sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / t }' "/proc/$1/stat"
}

echo "sudokulab $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet || echo +dirty); $(nproc) cpus; load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "lewis-sa (propagate none) tuned over alpha and chain-factor on $("$sl" --db "$work/base.db" -O csv sql "SELECT COUNT(*) FROM puzzle_catalog WHERE $train" | tail -n 1) puzzles of top1465 ($train),"
echo "budget $budget runs of at most $maxevals evaluations, objective effort, seed $seed; workers with --jobs 1, all under nice -n $niceness"
echo
printf '%-8s %6s %9s %8s %11s %12s %11s %12s %10s\n' workers runs "wall s" "runs/s" "runs CPU s" "workers CPU" "racer CPU" "racer/runs" "busy"
first=
for n in $workers; do
	db="$work/lab$n.db"
	cp "$work/base.db" "$db"
	pids=
	for i in $(seq 1 "$n"); do
		nice -n "$niceness" "$sl" --db "$db" worker --follow --jobs 1 >"$work/worker$n-$i.log" 2>&1 &
		pids="$pids $!"
	done
	start=$(date +%s.%N)
	# times prints this shell's CPU, then its children's: the racer's.
	nice -n "$niceness" sh -c '"$@" >/dev/null 2>"$0"; times' "$work/tune$n.log" \
		"$sl" --db "$db" tune --solver lewis-sa --set propagate=none \
		--param alpha=0.9..0.9999 --param chain-factor=log:0.01..10 \
		--train "$train" --budget "$budget" --max-evaluations "$maxevals" --objective effort \
		--seed "$seed" --experiment bench-workers --jobs 0 >"$work/times$n" || {
		cat "$work/tune$n.log" >&2
		exit 1
	}
	end=$(date +%s.%N)
	wcpu=0
	for p in $pids; do
		wcpu=$(echo "$wcpu $(cpu "$p")" | awk '{ print $1 + $2 }')
		kill -INT "$p"
	done
	wait
	pids=
	racer=$(awk 'NR == 2 { u = $1; s = $2; sub(/m/, " ", u); sub(/m/, " ", s); sub(/s/, "", u); sub(/s/, "", s);
		split(u, a, " "); split(s, b, " "); printf "%.2f", 60 * a[1] + a[2] + 60 * b[1] + b[2] }' "$work/times$n")
	# busy: the runs' wall time over the workers' time from the first
	# run's start to the last one's end; the rest they spent idle.
	"$sl" --db "$db" -O csv sql "SELECT COUNT(*), SUM(cpu_seconds),
		100 * SUM(wall_seconds) / ($n * 86400 * (julianday(MAX(finished_at)) - julianday(MIN(started_at))))
		FROM run_results WHERE experiment = 'bench-workers'" | tail -n 1 >"$work/runs$n"
	IFS=, read -r runs runcpu busy <"$work/runs$n"
	line=$(echo "$n $runs $start $end $runcpu $wcpu $racer $busy" | awk '{ wall = $4 - $3; printf "%-8s %6d %9.1f %8.3f %11.1f %12.1f %11.2f %11.2f%% %9.1f%%", $1, $2, wall, $2 / wall, $5, $6, $7, 100 * $7 / $5, $8 }')
	echo "$line"
	rate=$(echo "$line" | awk '{ print $4 }')
	if [ -z "$first" ]; then
		first=$rate
		firstn=$n
		firstbusy=$busy
	fi
	last=$rate
	lastn=$n
	lastbusy=$busy
done
echo
echo "runs/s with $lastn workers over $firstn: $(echo "$last $first" | awk '{ printf "%.2f", $1 / $2 }')x"
# What the waits alone allow: the ratio when each worker runs as fast as
# the one did, which a machine with a free core per worker gives.
echo "allowed by the workers' waits alone ($lastn x busy over $firstn x busy): $(echo "$lastn $lastbusy $firstn $firstbusy" | awk '{ printf "%.2f", ($1 * $2) / ($3 * $4) }')x"
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
