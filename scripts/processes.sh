#!/usr/bin/env bash
# processes.sh measures N identical `sudokulab run` processes sharing one
# SQLite lab, for N = 1, 2 and 4 (or the counts given), each repeated
# REPEAT times (default 2): the wall time until all exit, the runs
# recorded (each planned run must be recorded once), the processes that
# shared the work, and runs/s. RUN_ARGS overrides the plan. Results are in
# docs/scale-out.md.
#
#   scripts/processes.sh            # 1 2 4
#   scripts/processes.sh 1 8
set -euo pipefail
cd "$(dirname "$0")/.."
counts=("$@")
[ ${#counts[@]} -eq 0 ] && counts=(1 2 4)
repeat=${REPEAT:-2}
read -r -a plan <<< "${RUN_ARGS:---collection paper-puzzles --config franco-tabu-table2 --max-generations 8000 --runs 60}"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/sudokulab" ./cmd/sudokulab
sl="$dir/sudokulab"
for ((r = 0; r < repeat; r++)); do
	for n in "${counts[@]}"; do
		lab="$dir/lab-$n-$r.db"
		"$sl" --db "$lab" init --from lab.db.example > /dev/null
		start=$(date +%s.%N)
		pids=()
		for ((i = 0; i < n; i++)); do
			"$sl" --db "$lab" run "${plan[@]}" --experiment shared > /dev/null 2> "$dir/err.$i" &
			pids+=($!)
		done
		failed=0
		for p in "${pids[@]}"; do wait "$p" || failed=$((failed + 1)); done
		end=$(date +%s.%N)
		q() { "$sl" --db "$lab" -O csv sql "$1" | tail -1; }
		runs=$(q "SELECT COUNT(*) FROM experiment_runs er JOIN experiments e ON e.id = er.experiment_id WHERE e.name = 'shared'")
		distinct=$(q "SELECT COUNT(DISTINCT r.id) FROM runs r JOIN experiment_runs er ON er.run_id = r.id JOIN experiments e ON e.id = er.experiment_id WHERE e.name = 'shared'")
		workers=$(q "SELECT COUNT(DISTINCT w.worker) FROM work w JOIN experiments e ON e.id = w.experiment_id WHERE e.name = 'shared'")
		wall=$(echo "$end - $start" | bc)
		printf 'processes=%d failed=%d runs=%s distinct=%s sharing=%s wall=%.2fs runs/s=%.0f\n' \
			"$n" "$failed" "$runs" "$distinct" "$workers" "$wall" "$(echo "$runs / $wall" | bc -l)"
	done
done
