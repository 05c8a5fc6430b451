#!/usr/bin/env bash
# attack.sh: the adversarial pass of issue 30, reproducible. It attacks a
# freshly built sudokulab the ways that pass found doors (issue 30 items 1-7
# and its "also seen" list) and the ways that held (concurrency, kill -9 of
# every long command with a rerun, disk full, bad files, SQL escapes on
# SQLite and PostgreSQL, crafted lab files for merge), prints PASS or FAIL
# per case, and exits 1 if any case fails.
#
# Safe on a developer machine: everything lives in one temporary folder
# removed on exit (trap), the PostgreSQL server is a throwaway one started
# as a non-root user on 127.0.0.1 only (as internal/pgtest does), every
# command runs under `timeout`, files are capped with `ulimit -f`, and the
# full-disk cases use a small tmpfs mounted in a private mount namespace
# (unshare; or, without user namespaces, as root).
#
# Usage: scripts/attack.sh [PATTERN]   (only the cases whose name matches)
# Environment: ATTACK_SPOOL_MAX_MB (default 3072, above import's
# default --pipe-limit of 2048 MiB) caps any file the
# /dev/zero import can write; ATTACK_KEEP=1 keeps the temporary folder.
set -u -o pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
ONLY=${1:-}
T=$(mktemp -d "${TMPDIR:-/tmp}/sudokulab-attack.XXXXXX")
chmod 711 "$T"
export TMPDIR=$T/tmp
mkdir -p "$TMPDIR" "$T/bin"
SL=$T/bin/sudokulab
PASSES=0
FAILS=0
FAILED=()
BG=()       # background process ids to kill on exit
PG_AS=()    # how to run the PostgreSQL programs (a non-root user)
PG_BIN=""
PG_DATA=""
MNT=""

cleanup() {
	for p in "${BG[@]}"; do kill -9 "$p" 2>/dev/null; done
	if [ -n "$PG_DATA" ] && [ -f "$PG_DATA/postmaster.pid" ]; then
		"${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DATA" -m immediate -w stop >/dev/null 2>&1
	fi
	if [ -n "$MNT" ] && mountpoint -q "$MNT" 2>/dev/null; then umount "$MNT" 2>/dev/null; fi
	if [ "${ATTACK_KEEP:-}" = 1 ]; then echo "kept $T"; else rm -rf "$T"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- helpers

pass() { PASSES=$((PASSES + 1)); printf 'PASS  %s\n' "$1"; }
fail() {
	FAILS=$((FAILS + 1)); FAILED+=("$1")
	printf 'FAIL  %s: %s\n' "$1" "$2"
}
# wanted NAME: whether the case NAME is selected by PATTERN.
wanted() { [ -z "$ONLY" ] || [[ $1 == *$ONLY* ]]; }

# sl ARGS...: runs sudokulab under a timeout (TO seconds, default 120);
# stdout in $T/out, stderr in $T/err, exit status in RC.
sl() {
	timeout -k 5 "${TO:-120}" "$SL" "$@" >"$T/out" 2>"$T/err"
	RC=$?
}
# val DB SQL: the single value a query gives (read-only sql, CSV).
val() { timeout 60 "$SL" --db "$1" -O csv sql "$2" 2>/dev/null | tail -n +2 | tr -d '"\r'; }
# integrity DB: "ok" if SQLite's integrity and foreign-key checks pass.
integrity() {
	local ic fk
	ic=$(val "$1" "PRAGMA integrity_check")
	fk=$(timeout 60 "$SL" --db "$1" -O csv sql "PRAGMA foreign_key_check" 2>/dev/null | tail -n +2)
	if [ "$ic" = ok ] && [ -z "$fk" ]; then echo ok; else echo "integrity_check=$ic foreign_key_check=${fk:0:200}"; fi
}
# waitfor SECONDS CMD...: polls CMD every 50 ms until it succeeds.
waitfor() {
	local end=$((SECONDS + $1)); shift
	until "$@"; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.05
	done
}
# alive PID: whether the process still runs.
alive() { kill -0 "$1" 2>/dev/null; }
# reap PID SECONDS: waits up to SECONDS for PID to end; its status in RC
# (999 if it had to be killed).
reap() {
	if waitfor "$2" eval '! alive '"$1"; then
		wait "$1"; RC=$?
	else
		kill -9 "$1" 2>/dev/null; wait "$1" 2>/dev/null; RC=999
	fi
}
# errsay WORDS...: the last stderr (one line) for a failure message.
errsay() { tr '\n' ' ' <"$T/err" | cut -c1-240; }
# bytes DIR: bytes held by the files under DIR.
bytes() { du -sb "$1" 2>/dev/null | cut -f1; }
# newlab NAME: a fresh lab from lab.db.example; prints its path.
newlab() { local p=$T/$1.db; rm -f "$p"*; "$SL" --db "$p" init --from "$ROOT/lab.db.example" >/dev/null 2>&1 && echo "$p"; }
# copylab SRC NAME: a copy of a closed lab.
copylab() { local p=$T/$2.db; rm -f "$p"*; cp "$1" "$p" && echo "$p"; }
# unchanged NAME FILE SUM: FILE's checksum is still SUM.
sum() { sha256sum "$1" | cut -d' ' -f1; }

# ---------------------------------------------------------------- setup

echo "building sudokulab ..."
(cd "$ROOT" && go build -o "$SL" ./cmd/sudokulab) || { echo "build failed"; exit 1; }

echo "making the fixtures ..."
FIX=$(newlab fixture)
"$SL" --db "$FIX" generate --count 3000 --collection gen --seed 1 --jobs 2 >/dev/null 2>&1
"$SL" --db "$FIX" export --collection gen -o "$T/gen.txt" >/dev/null 2>&1
cut -c1-81 "$T/gen.txt" >"$T/small.txt"
# 54,000 distinct puzzles from the 3,000: each relabelled 9 ways and
# transposed (both keep one solution).
awk '{
	g = substr($1, 1, 81)
	t = ""; for (c = 0; c < 9; c++) for (r = 0; r < 9; r++) t = t substr(g, r * 9 + c + 1, 1)
	for (k = 0; k < 9; k++) {
		a = ""; b = ""
		for (i = 1; i <= 81; i++) {
			x = substr(g, i, 1); y = substr(t, i, 1)
			a = a (x == "." ? "." : (x - 1 + k) % 9 + 1)
			b = b (y == "." ? "." : (y - 1 + k) % 9 + 1)
		}
		print a; print b
	}
}' "$T/small.txt" | sort -u >"$T/big.txt"
BIGN=$(wc -l <"$T/big.txt")
cp "$FIX" "$T/small-lab.db"
BIG=$(newlab big)
"$SL" --db "$BIG" import "$T/big.txt" --collection big >/dev/null 2>&1
[ "$(val "$BIG" "SELECT count(*) FROM puzzle_catalog WHERE collection = 'big'")" = "$BIGN" ] || { echo "fixture import failed"; exit 1; }
echo "fixtures: $BIGN puzzles"

# ------------------------------------------------ PostgreSQL (throwaway)

PG_PORT=""
start_pg() {
	if PG_BIN=$(pg_config --bindir 2>/dev/null) && [ -x "$PG_BIN/initdb" ]; then :; else
		PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5,5 -rV | head -1)
	fi
	[ -x "$PG_BIN/initdb" ] || { echo "no PostgreSQL server programs (scripts/ensure-postgres installs them)"; return 1; }
	mkdir -p "$T/pg"
	PG_DATA=$T/pg/data
	if [ "$(id -u)" = 0 ]; then
		local u=postgres
		id "$u" >/dev/null 2>&1 || u=nobody
		chown "$u" "$T/pg"
		PG_AS=(runuser -u "$u" --)
	fi
	"${PG_AS[@]}" "$PG_BIN/initdb" -D "$PG_DATA" -A trust -U pgsuper --no-sync -E UTF8 --locale=C >"$T/pg-initdb.log" 2>&1 || return 1
	for _ in 1 2 3 4 5; do
		PG_PORT=$((20000 + RANDOM % 30000))
		"${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$T/pg/log" -w -o \
			"-h 127.0.0.1 -p $PG_PORT -k $T/pg -c fsync=off -c synchronous_commit=off -c max_connections=100" start >/dev/null 2>&1 && return 0
	done
	return 1
}
PSQL() { timeout 30 psql -X -q -t -A -v ON_ERROR_STOP=1 "$@" 2>&1; }

# ================================================================ cases

# -------- issue 30 item 1: import of a non-regular file
case_devzero() {
	local name=1-import-devzero-bounded lab
	wanted $name || return
	lab=$(newlab devzero)
	rm -rf "${TMPDIR:?}"/*
	(ulimit -f $((${ATTACK_SPOOL_MAX_MB:-3072} * 1024)); timeout -k 5 60 "$SL" --db "$lab" import /dev/zero >"$T/out" 2>"$T/err"); RC=$?
	local left; left=$(bytes "$TMPDIR")
	if [ $RC != 2 ] || grep -qi "file too large" "$T/err"; then fail $name "exit $RC (want 2, the spool's own limit, before the file cap and the 60 s timeout): $(errsay)"
	elif [ "$left" -gt 65536 ]; then fail $name "$left bytes left in TMPDIR"
	else pass $name; fi

	name=1-import-devzero-sigterm
	if wanted $name; then
		rm -rf "${TMPDIR:?}"/*
		(ulimit -f $((${ATTACK_SPOOL_MAX_MB:-3072} * 1024)); exec "$SL" --db "$lab" import /dev/zero >/dev/null 2>"$T/err") &
		local pid=$!; BG+=("$pid")
		sleep 1
		kill -TERM "$pid" 2>/dev/null
		reap "$pid" 10
		left=$(bytes "$TMPDIR")
		if [ $RC = 999 ]; then fail $name "still running 10 s after SIGTERM"
		elif [ "$left" -gt 65536 ]; then fail $name "exit $RC, $left bytes left in TMPDIR"
		else pass $name; fi
	fi

	name=1-import-devzero-sigkill
	if wanted $name; then
		rm -rf "${TMPDIR:?}"/*
		(ulimit -f $((${ATTACK_SPOOL_MAX_MB:-3072} * 1024)); exec "$SL" --db "$lab" import /dev/zero >/dev/null 2>&1) &
		local pid=$!; BG+=("$pid")
		sleep 1
		kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
		left=$(bytes "$TMPDIR")
		if [ "$left" -gt 65536 ]; then fail $name "$left bytes left in TMPDIR after kill -9"
		else pass $name; fi
	fi
}

# -------- issue 30 item 3: a predicate closing the wrapper's parenthesis
case_where_parens_sqlite() {
	local name=3-where-parens-sqlite lab
	wanted $name || return
	lab=$(newlab parens)
	local before; before=$(sum "$lab")
	TO=20 sl --db "$lab" run --collection paper-puzzles --solver exact --where "0) OR (1=1"
	local r1=$RC
	TO=20 sl --db "$lab" puzzles list --where "1=1) OR (1=1"
	if [ $r1 != 2 ] || [ $RC != 2 ]; then fail $name "run exit $r1, puzzles list exit $RC (want 2, 2): $(errsay)"
	elif [ "$(sum "$lab")" != "$before" ]; then fail $name "the lab changed"
	else pass $name; fi
}

# -------- also seen: --jobs far beyond the cores
case_jobs_cap() {
	local name=also-jobs-cap lab
	wanted $name || return
	lab=$(newlab jobs)
	/usr/bin/time -f %M -o "$T/rss" timeout 120 "$SL" --db "$lab" run --collection paper-puzzles --solver exact --limit 80 --jobs 100000 --experiment jobs >"$T/out" 2>"$T/err"
	local r1=$? rss1; rss1=$(tail -1 "$T/rss")
	/usr/bin/time -f %M -o "$T/rss" timeout 120 "$SL" --db "$lab" generate --count 80 --collection jobs --seed 3 --jobs 100000 >"$T/out" 2>>"$T/err"
	local r2=$? rss2; rss2=$(tail -1 "$T/rss")
	if [ $r1 != 0 ] || [ $r2 != 0 ]; then fail $name "exit $r1, $r2: $(errsay)"
	elif [ "$rss1" -gt 250000 ] || [ "$rss2" -gt 250000 ]; then fail $name "max RSS run ${rss1} KB, generate ${rss2} KB (want < 250 MB)"
	else pass $name; fi
}

# -------- also seen: a first seed that overflows
case_seed_overflow() {
	local name=also-seed-overflow lab
	wanted $name || return
	lab=$(newlab seed)
	TO=30 sl --db "$lab" run --puzzle 1 --solver exact --seed 9223372036854775807 --runs 3 --experiment overflow
	local neg; neg=$(val "$lab" "SELECT count(*) FROM runs WHERE seed < 0")
	if [ $RC != 2 ]; then fail $name "exit $RC (want 2, the overflow refused), $neg negative seeds stored: $(errsay)"
	elif [ "$neg" != 0 ]; then fail $name "$neg runs with negative seeds"
	else pass $name; fi
}

# -------- also seen: a line of the wrong length
case_shape_message() {
	local name=also-shape-message lab
	wanted $name || return
	lab=$(newlab shape)
	printf '%s\n' "$(head -c 49 /dev/zero | tr '\0' '.')" >"$T/seven.txt"
	sl --db "$lab" import "$T/seven.txt"
	if [ $RC != 2 ]; then fail $name "exit $RC: $(errsay)"
	elif ! grep -q "seven.txt:1" "$T/err" || ! grep -q "49 cells" "$T/err" || grep -qE "49 cells, want 36$" "$T/err"; then
		fail $name "the message does not name the file, the line and the 49 cells read, or says only 'want 36': $(errsay)"
	else pass $name; fi
}

# -------- issue 30 item 7: run exits 0 only with its plan done
case_run_exit_pending() {
	local name=7-run-exit-0-only-when-done
	wanted $name || return
	local n; n=$(val "$FIX" "SELECT count(DISTINCT id) FROM puzzle_catalog WHERE collection = 'paper-puzzles'")
	local total=$((n * 5)) bad="" loops=()
	for _ in 1 2; do (end=$((SECONDS + 60)); while [ $SECONDS -lt $end ]; do :; done) & loops+=($!); BG+=($!); done
	for rep in 1 2 3 4; do
		for k in 1 2 3; do
			local lab; lab=$(newlab "shard$k")
			TO=60 sl --db "$lab" run --collection paper-puzzles --solver exact --runs 5 --experiment shards --shard "$k/3"
			local want=$(( (total - (k - 1) + 2) / 3 )) got
			got=$(val "$lab" "SELECT count(*) FROM experiment_runs er JOIN experiments e ON e.id = er.experiment_id WHERE e.name = 'shards'")
			if [ $RC = 0 ] && [ "$got" != "$want" ]; then bad="$bad rep $rep shard $k/3 exit 0 with $got of $want runs;"; fi
			if [ $RC != 0 ]; then bad="$bad rep $rep shard $k/3 exit $RC: $(errsay);"; fi
		done
	done
	kill "${loops[@]}" 2>/dev/null; wait "${loops[@]}" 2>/dev/null
	if [ -n "$bad" ]; then fail $name "$bad"; else pass $name; fi
}

# -------- concurrency on one SQLite file
case_concurrency() {
	local name=conc-two-runs-one-plan lab
	if wanted $name; then
		lab=$(copylab "$BIG" conc1)
		local args=(--db "$lab" run --collection big --limit 3000 --solver exact --runs 3 --experiment twice)
		timeout 180 "$SL" "${args[@]}" >"$T/out1" 2>"$T/err1" & local p1=$!; BG+=("$p1")
		timeout 180 "$SL" "${args[@]}" >"$T/out2" 2>"$T/err2" & local p2=$!; BG+=("$p2")
		wait $p1; local r1=$?; wait $p2; local r2=$?
		local got; got=$(val "$lab" "SELECT count(*) FROM experiment_runs er JOIN experiments e ON e.id = er.experiment_id WHERE e.name = 'twice'")
		local ok; ok=$(integrity "$lab")
		if [ $r1 != 0 ] || [ $r2 != 0 ]; then fail $name "exits $r1 $r2: $(tr '\n' ' ' <"$T/err1" | cut -c1-200)"
		elif [ "$got" != 9000 ]; then fail $name "$got runs, want 9000"
		elif [ "$ok" != ok ]; then fail $name "$ok"
		else pass $name; fi
	fi
	name=conc-run-beside-import
	if wanted $name; then
		lab=$(copylab "$BIG" conc2)
		timeout 180 "$SL" --db "$lab" run --collection big --limit 3000 --solver exact --runs 3 --experiment beside >"$T/out1" 2>"$T/err1" & local p1=$!; BG+=("$p1")
		timeout 180 "$SL" --db "$lab" import "$T/big.txt" --collection again >"$T/out2" 2>"$T/err2" & local p2=$!; BG+=("$p2")
		wait $p1; local r1=$?; wait $p2; local r2=$?
		local runs again ok
		runs=$(val "$lab" "SELECT count(*) FROM experiment_runs er JOIN experiments e ON e.id = er.experiment_id WHERE e.name = 'beside'")
		again=$(val "$lab" "SELECT count(*) FROM puzzle_catalog WHERE collection = 'again'")
		ok=$(integrity "$lab")
		if [ $r1 != 0 ] || [ $r2 != 0 ]; then fail $name "exits run $r1 import $r2: $(cat "$T/err1" "$T/err2" | tr '\n' ' ' | cut -c1-200)"
		elif [ "$runs" != 9000 ] || [ "$again" != "$BIGN" ]; then fail $name "$runs runs (want 9000), $again imported (want $BIGN)"
		elif [ "$ok" != ok ]; then fail $name "$ok"
		else pass $name; fi
	fi
}

# -------- kill -9 of each long command, then the same command again
# killrerun NAME LAB PROGRESS-SQL CHECK-SQL WANT ARGS...: starts ARGS on
# LAB, kills it with SIGKILL once PROGRESS-SQL gives a number above 0,
# runs ARGS again, and wants CHECK-SQL to give WANT and the file intact.
killrerun() {
	local name=$1 lab=$2 progress=$3 check=$4 want=$5; shift 5
	wanted $name || return
	local base; base=$(val "$lab" "$progress")
	# Started without timeout(1), so that the kill reaches sudokulab
	# itself: killing a timeout process leaves its command running.
	"$SL" --db "$lab" "$@" >"$T/out" 2>"$T/err" & local pid=$!; BG+=("$pid")
	local killed=no
	if waitfor 60 eval 'alive '"$pid"' && [ "$(val "$lab" "$progress")" -gt "${base:-0}" ] || ! alive '"$pid"; then
		if alive "$pid"; then kill -9 "$pid"; killed=yes; fi
	fi
	alive "$pid" && kill -9 "$pid" # no progress in 60 s: bounded all the same
	wait "$pid" 2>/dev/null
	if [ $killed = no ]; then fail $name "the command ended before it could be killed mid-way (enlarge its work)"; return; fi
	local mid; mid=$(integrity "$lab")
	# At once: a killed import of this host holds nothing (its process is
	# gone), so the rerun takes it over without waiting for its lease.
	TO=300 sl --db "$lab" "$@"
	local got ok; got=$(val "$lab" "$check"); ok=$(integrity "$lab")
	if [ "$mid" != ok ]; then fail $name "after kill -9: $mid"
	elif [ $RC != 0 ]; then fail $name "rerun exit $RC: $(errsay)"
	elif [ "$got" != "$want" ]; then fail $name "after the rerun $got, want $want"
	elif [ "$ok" != ok ]; then fail $name "$ok"
	else pass $name; fi
}
case_kill9() {
	local lab
	wanted kill9-import && { lab=$(newlab k-import)
		killrerun kill9-import "$lab" "SELECT count(*) FROM puzzles" \
			"SELECT count(*) FROM puzzle_catalog WHERE collection = 'big'" "$BIGN" import "$T/big.txt" --collection big; }
	wanted kill9-run && { lab=$(copylab "$BIG" k-run)
		killrerun kill9-run "$lab" "SELECT count(*) FROM runs" \
			"SELECT count(*) FROM experiment_runs er JOIN experiments e ON e.id = er.experiment_id WHERE e.name = 'k'" 30000 \
			run --collection big --limit 3000 --solver exact --runs 10 --experiment k; }
	wanted kill9-rate && { lab=$(copylab "$BIG" k-rate)
		killrerun kill9-rate "$lab" "SELECT count(*) FROM ratings WHERE rater = 'human'" \
			"SELECT count(DISTINCT r.puzzle_id) FROM ratings r JOIN puzzle_catalog c ON c.id = r.puzzle_id WHERE r.rater = 'human' AND c.collection = 'big'" "$BIGN" \
			rate --rater human --collection big; }
	wanted kill9-count && { lab=$(copylab "$BIG" k-count)
		"$SL" --db "$lab" sql --write "UPDATE puzzles SET solution_count = NULL, count_status = NULL" >/dev/null 2>&1
		killrerun kill9-count "$lab" "SELECT count(*) FROM puzzles WHERE solution_count IS NOT NULL" \
			"SELECT count(*) FROM puzzles WHERE solution_count IS NULL" 0 count --jobs 2; }
	wanted kill9-generate && { lab=$(newlab k-gen)
		killrerun kill9-generate "$lab" "SELECT count(*) FROM puzzles" \
			"SELECT count(*) FROM puzzle_catalog WHERE collection = 'fresh'" 8000 generate --count 8000 --collection fresh --seed 11 --jobs 2; }
	wanted kill9-merge && {
		local src; src=$(copylab "$BIG" k-src)
		"$SL" --db "$src" run --collection big --limit 3000 --solver exact --runs 10 --experiment m >/dev/null 2>&1
		local want; want=$(val "$src" "SELECT count(*) FROM runs")
		lab=$(newlab k-merge)
		killrerun kill9-merge "$lab" "SELECT count(*) FROM puzzles" "SELECT count(*) FROM runs" "$want" merge "$src"; }
}

# -------- disk full, on a small tmpfs
# onsmall SIZE SCRIPT: runs SCRIPT (bash) with $MNT a tmpfs of SIZE
# mounted in a private mount namespace; false if none can be mounted.
onsmall() {
	local size=$1 script=$2
	MNT=$T/small; mkdir -p "$MNT"
	if unshare --user --map-root-user --mount true 2>/dev/null; then
		unshare --user --map-root-user --mount bash -c "mount -t tmpfs -o size=$size tmpfs '$MNT' && $script"
	elif [ "$(id -u)" = 0 ]; then
		unshare --mount bash -c "mount -t tmpfs -o size=$size tmpfs '$MNT' && $script"
	else
		return 99
	fi
}
# diskfull NAME SIZE WANT INIT-ARGS -- ARGS...: on a tmpfs of SIZE, makes a
# lab with init INIT-ARGS and runs ARGS until the disk is full; wants an
# exit status of its own (not 0, nor 1 for an internal error) saying the
# disk is full, the lab intact, and ARGS run again once the tmpfs is
# larger to complete, with the query $CHECK giving WANT.
diskfull() {
	local name=$1 size=$2 want=$3; shift 3
	wanted $name || return
	local init=()
	while [ "$1" != -- ]; do init+=("$1"); shift; done
	shift
	cat >"$T/full.sh" <<EOF
set -u
lab=$T/small/lab.db
"$SL" --db \$lab init ${init[*]} >/dev/null 2>&1 || exit 97
timeout 120 "$SL" --db \$lab $* >$T/out 2>$T/err
echo \$? >$T/rc
"$SL" --db \$lab -O csv sql "PRAGMA integrity_check" 2>&1 | tail -1 >$T/ic1
mount -o remount,size=512m $T/small
timeout 120 "$SL" --db \$lab $* >$T/out2 2>$T/err2
echo \$? >$T/rc2
"$SL" --db \$lab -O csv sql "$CHECK" 2>&1 | tail -1 | tr -d '"' >$T/n2
"$SL" --db \$lab -O csv sql "PRAGMA integrity_check" 2>&1 | tail -1 >$T/ic2
EOF
	rm -f "$T/rc" "$T/rc2" "$T/ic1" "$T/ic2" "$T/n2"
	onsmall "$size" "bash $T/full.sh"
	local st=$?
	if [ $st = 99 ]; then fail $name "cannot mount a tmpfs (no user namespaces, not root): run as root, or enable kernel.unprivileged_userns_clone"; return; fi
	local rc rc2 ic1 ic2 n2
	rc=$(cat "$T/rc" 2>/dev/null); rc2=$(cat "$T/rc2" 2>/dev/null)
	ic1=$(cat "$T/ic1" 2>/dev/null); ic2=$(cat "$T/ic2" 2>/dev/null); n2=$(cat "$T/n2" 2>/dev/null)
	if [ -z "$rc" ]; then fail $name "the tmpfs script did not run (status $st)"
	elif [ "$rc" = 0 ]; then fail $name "exit 0: the disk never filled (make SIZE smaller)"
	elif [ "$rc" = 1 ] || [ "$rc" -ge 124 ]; then fail $name "exit $rc on a full disk (want a code of its own or 'bad environment', not 1, an internal error): $(errsay)"
	elif ! grep -qi "space\|disk.*full\|full.*disk" "$T/err"; then fail $name "exit $rc without saying the disk is full: $(errsay)"
	elif [ "$ic1" != ok ]; then fail $name "after the full disk: integrity_check $ic1"
	elif [ "$rc2" != 0 ] || [ "$n2" != "$want" ] || [ "$ic2" != ok ]; then fail $name "once there is room: exit $rc2, $n2 (want $want), integrity $ic2"
	else pass $name; fi
}
case_disk_full() {
	CHECK="SELECT count(*) FROM puzzle_catalog WHERE collection = 'big'" \
		diskfull disk-full-import 3m "$BIGN" -- import "$T/big.txt" --collection big
	CHECK="SELECT count(*) FROM experiment_runs er JOIN experiments e ON e.id = er.experiment_id WHERE e.name = 'full'" \
		diskfull disk-full-run 4m 3000 --from "$T/small-lab.db" -- run --collection gen --solver exact --runs 1 --experiment full --trace improve,every=1,final
}

# -------- bad files for import
case_bad_files() {
	local lab; lab=$(newlab bad)
	local before
	mkdir -p "$T/adir"
	head -c 200000 /dev/urandom >"$T/random.bin"
	: >"$T/empty.txt"
	local g; g=$(head -1 "$T/small.txt")
	printf '%s\n' "$(sed -n 2p "$T/small.txt")" "55${g:2}" >"$T/conflict.txt"
	{ head -3 "$T/small.txt"; head -1 "$T/small.txt" | sed 's/\./@/3'; } >"$T/chars.txt"
	(head -c 30000000 /dev/zero | tr '\0' '1') >"$T/longline.txt"
	local f want
	for spec in "missing:$T/nope.txt:2,3" "directory:$T/adir:2" "random-bytes:$T/random.bin:2" "conflicting-givens:$T/conflict.txt:2" \
		"bad-characters:$T/chars.txt:2" "30MB-line:$T/longline.txt:2"; do
		IFS=: read -r what f want <<<"$spec"
		local name=badfile-$what
		wanted $name || continue
		before=$(val "$lab" "SELECT count(*) FROM puzzles")
		/usr/bin/time -f %M -o "$T/rss" timeout -k 5 60 "$SL" --db "$lab" import "$f" --collection bad >"$T/out" 2>"$T/err"; RC=$?
		local rss; rss=$(tail -1 "$T/rss")
		local now; now=$(val "$lab" "SELECT count(*) FROM puzzles")
		if [[ ",$want," != *",$RC,"* ]]; then fail $name "exit $RC (want $want): $(errsay)"
		elif ! grep -q "$(basename "$f")" "$T/err"; then fail $name "the message does not name the file: $(errsay)"
		elif [ "$now" != "$before" ]; then fail $name "$((now - before)) puzzles stored from a bad file"
		elif [ "$rss" -gt 400000 ]; then fail $name "max RSS $rss KB"
		else pass $name; fi
	done
	local name=badfile-empty
	if wanted $name; then
		before=$(val "$lab" "SELECT count(*) FROM puzzles")
		sl --db "$lab" import "$T/empty.txt" --collection bad
		local now; now=$(val "$lab" "SELECT count(*) FROM puzzles")
		if [ $RC = 1 ] || [ $RC -ge 124 ]; then fail $name "exit $RC: $(errsay)"
		elif [ "$now" != "$before" ]; then fail $name "puzzles stored"
		else pass $name; fi
	fi
	name=badfile-lab-intact
	if wanted $name; then
		local ok; ok=$(integrity "$lab")
		if [ "$ok" != ok ]; then fail $name "$ok"; else pass $name; fi
	fi
}

# -------- SQL escapes on SQLite: read-only means the file's bytes stay
case_sql_sqlite() {
	local lab; lab=$(newlab esc)
	"$SL" --db "$lab" sql "SELECT 1" >/dev/null 2>&1
	local before; before=$(sum "$lab")
	local n=0
	while IFS='|' read -r what args; do
		[ -z "$what" ] && continue
		local name=sqlite-escape-$what
		wanted $name || continue
		eval "set -- $args"
		TO=30 sl --db "$lab" "$@"
		if [ $RC != 2 ]; then fail $name "exit $RC (want 2): $(errsay)"
		elif [ "$(sum "$lab")" != "$before" ]; then fail $name "the lab file changed"
		elif [ -e "$T/x.db" ] || [ -e "$T/copy.db" ]; then fail $name "a file was written"; rm -f "$T/x.db" "$T/copy.db"
		else pass $name; fi
		n=$((n + 1))
	done <<EOF
delete|sql "DELETE FROM puzzles"
attach|sql "ATTACH '$T/x.db' AS x"
query-only-off|sql "PRAGMA query_only = 0"
journal-mode|sql "PRAGMA journal_mode = DELETE"
vacuum-into|sql "VACUUM INTO '$T/copy.db'"
load-extension|sql "SELECT load_extension('$T/x.so')"
writefile|sql "SELECT writefile('$T/x.db', 'x')"
where-semicolon|puzzles list --where "1=1; DELETE FROM puzzles"
where-parens|puzzles list --where "1=1) OR (1=1"
where-comment|puzzles list --where "1=1 /* ; */; DELETE FROM puzzles"
runs-where-attach|runs list --runs-where "1=1); ATTACH '$T/x.db' AS x; SELECT (1"
timeout|--statement-timeout 500ms sql "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000000) SELECT count(*) FROM c"
EOF
}

# -------- PostgreSQL: issue 30 items 2, 3, 4, 5, 6 and the SQL escapes
case_postgres() {
	local any="" n
	for n in 2-pg-worker-survives-restart 3-where-parens-pg 4-pg-predicates-large-objects 5-pg-terminate-backend 5-pg-sql-set \
		5-pg-sql-statement-timeout 5-pg-sql-ctrl-c-stops-server 5-pg-superuser-copy-to-program 6-init-masks-password pg-concurrency-two-runs-one-plan; do
		wanted "$n" && any=1
	done
	[ -z "$any" ] && return
	if ! start_pg; then fail pg-server "cannot start a throwaway PostgreSQL server: $(tail -3 "$T/pg-initdb.log" "$T/pg/log" 2>/dev/null | tr '\n' ' ')"; return; fi
	local H="127.0.0.1:$PG_PORT" SUPER_ADMIN="postgres://pgsuper@127.0.0.1:$PG_PORT/postgres?sslmode=disable"
	PSQL "$SUPER_ADMIN" -c "CREATE ROLE lab LOGIN PASSWORD 'labpw' NOSUPERUSER NOCREATEDB NOCREATEROLE" -c "CREATE DATABASE lab OWNER lab" >/dev/null
	local LAB="postgres://lab:labpw@$H/lab?sslmode=disable" SUPER="postgres://pgsuper@$H/lab?sslmode=disable"

	local name=6-init-masks-password
	if wanted $name; then
		sl --db "$LAB" init
		if [ $RC != 0 ]; then fail $name "init exit $RC: $(errsay)"
		elif grep -q labpw "$T/out" "$T/err"; then fail $name "init printed the password: $(tr '\n' ' ' <"$T/out")"
		else pass $name; fi
	else
		"$SL" --db "$LAB" init >/dev/null 2>&1
	fi
	"$SL" --db "$LAB" merge "$ROOT/lab.db.example" >/dev/null 2>&1
	"$SL" --db "$LAB" import "$T/small.txt" --collection gen >/dev/null 2>&1

	name=3-where-parens-pg
	if wanted $name; then
		TO=20 sl --db "$LAB" puzzles list --where "1=1) OR (1=1"
		local r1=$RC
		TO=20 sl --db "$LAB" run --collection paper-puzzles --solver exact --where "0) OR (1=1"
		if [ $r1 != 2 ] || [ $RC != 2 ]; then fail $name "puzzles list exit $r1, run exit $RC (want 2, 2): $(errsay)"; else pass $name; fi
	fi

	name=4-pg-predicates-large-objects
	if wanted $name; then
		local lo="lo_from_bytea(0, 'x'::bytea) > 0" bad=""
		for args in "puzzles list --where" "export --where" "collections add lo --where" "runs list --where"; do
			# shellcheck disable=SC2086
			TO=30 sl --db "$LAB" $args "$lo"
			[ $RC = 2 ] || bad="$bad $args: exit $RC;"
		done
		local n; n=$(PSQL "$SUPER" -c "SELECT count(*) FROM pg_largeobject_metadata")
		if [ -n "$bad" ]; then fail $name "$bad $(errsay)"
		elif [ "$n" != 0 ]; then fail $name "$n large objects left"
		else pass $name; fi
	fi

	name=5-pg-terminate-backend
	if wanted $name; then
		timeout 60 psql -X -q "postgres://lab:labpw@$H/lab?sslmode=disable&application_name=victim" -c "SELECT pg_sleep(30)" >/dev/null 2>&1 &
		local victim=$!; BG+=("$victim")
		waitfor 10 eval '[ "$(PSQL "$SUPER" -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = '"'victim'"'")" = 1 ]'
		TO=30 sl --db "$LAB" sql "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'victim'"
		local r=$RC still; still=$(PSQL "$SUPER" -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'victim'")
		kill "$victim" 2>/dev/null; wait "$victim" 2>/dev/null
		if [ $r != 2 ]; then fail $name "exit $r: $(errsay)"
		elif [ "$still" != 1 ]; then fail $name "the other session was terminated"
		else pass $name; fi
	fi

	while IFS='|' read -r what stmt; do
		[ -z "$what" ] && continue
		name=5-pg-sql-$what
		wanted $name || continue
		TO=30 sl --db "$LAB" sql "$stmt"
		if [ $RC != 2 ]; then fail $name "exit $RC (want 2): $(errsay)"; else pass $name; fi
	done <<'EOF'
set-config|SELECT set_config('work_mem', '1MB', false)
set|SET work_mem = '1MB'
advisory-lock|SELECT pg_advisory_lock(42)
notify|NOTIFY lab
pg-notify|SELECT pg_notify('lab', 'x')
listen|LISTEN lab
delete|DELETE FROM puzzles
stacked|SELECT 1; DELETE FROM puzzles
nextval|SELECT nextval('puzzles_id_seq')
for-update|SELECT id FROM puzzles FOR UPDATE
query-to-xml|SELECT query_to_xml('SELECT pg_terminate_backend(1)', true, true, '')
EOF
	name=5-pg-sql-no-lock-left
	if wanted $name; then
		local locks; locks=$(PSQL "$SUPER" -c "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'")
		local puzzles; puzzles=$(PSQL "$SUPER" -c "SELECT count(*) FROM puzzles")
		if [ "$locks" != 0 ]; then fail $name "$locks advisory locks held"
		elif [ "${puzzles:-0}" -lt 3000 ]; then fail $name "puzzles deleted: $puzzles left"
		else pass $name; fi
	fi

	name=5-pg-sql-statement-timeout
	if wanted $name; then
		local t0=$SECONDS
		TO=30 sl --db "$LAB" --statement-timeout 1s sql "SELECT pg_sleep(100)"
		if [ $RC != 2 ]; then fail $name "exit $RC after $((SECONDS - t0)) s (want 2 after the 1 s timeout): $(errsay)"
		elif ! grep -q "statement timeout" "$T/err"; then fail $name "$(errsay)"
		else pass $name; fi
	fi

	name=5-pg-sql-ctrl-c-stops-server
	if wanted $name; then
		timeout 120 "$SL" --db "$LAB" sql "SELECT pg_sleep(99)" >/dev/null 2>&1 &
		local pid=$!; BG+=("$pid")
		local sleeping='[ "$(PSQL "$SUPER" -c "SELECT count(*) FROM pg_stat_activity WHERE state = '"'active'"' AND query LIKE '"'%pg_sleep(99)%'"' AND pid <> pg_backend_pid()")" = '
		if ! waitfor 15 eval "$sleeping"'1 ]'; then fail $name "the statement never showed as active"
		else
			kill -INT "$pid"; reap "$pid" 10
			if [ $RC != 130 ]; then fail $name "exit $RC after Ctrl-C (want 130)"
			elif ! waitfor 10 eval "$sleeping"'0 ]'; then fail $name "the server still runs the statement 10 s after Ctrl-C"
			else pass $name; fi
		fi
	fi

	while IFS='|' read -r what stmt; do
		[ -z "$what" ] && continue
		name=5-pg-superuser-$what
		wanted $name || continue
		TO=30 sl --db "$SUPER" sql "$stmt"
		if [ $RC != 2 ]; then fail $name "exit $RC (want 2): $(errsay)"
		elif [ -e "$T/pwned" ]; then fail $name "COPY TO PROGRAM ran"; rm -f "$T/pwned"
		else pass $name; fi
	done <<EOF
copy-to-program|COPY (SELECT 1) TO PROGRAM 'touch $T/pwned'
pg-read-file|SELECT pg_read_file('/etc/hostname')
lo-import|SELECT lo_import('/etc/hostname')
reload-conf|SELECT pg_reload_conf()
ls-dir|SELECT pg_ls_dir('.')
EOF

	name=pg-concurrency-two-runs-one-plan
	if wanted $name; then
		local args=(--db "$LAB" run --collection gen --solver exact --runs 2 --experiment twice)
		timeout 180 "$SL" "${args[@]}" >"$T/out1" 2>"$T/err1" & local p1=$!; BG+=("$p1")
		timeout 180 "$SL" "${args[@]}" >"$T/out2" 2>"$T/err2" & local p2=$!; BG+=("$p2")
		wait $p1; local r1=$?; wait $p2; local r2=$?
		local got; got=$(PSQL "$SUPER" -c "SELECT count(*) FROM experiment_runs er JOIN experiments e ON e.id = er.experiment_id WHERE e.name = 'twice'")
		if [ $r1 != 0 ] || [ $r2 != 0 ]; then fail $name "exits $r1 $r2: $(cat "$T/err1" "$T/err2" | tr '\n' ' ' | cut -c1-200)"
		elif [ "$got" != 6000 ]; then fail $name "$got runs, want 6000"
		else pass $name; fi
	fi

	name=2-pg-worker-survives-restart
	if wanted $name; then
		"$SL" --db "$LAB" import "$T/big.txt" --collection big >/dev/null 2>&1
		"$SL" --db "$LAB" run --collection big --limit 6000 --solver exact --runs 1 --experiment restart --enqueue-only >/dev/null 2>&1
		timeout 300 "$SL" --db "$LAB" worker --experiment restart >"$T/out" 2>"$T/err" &
		local pid=$!; BG+=("$pid")
		local done_q="SELECT count(*) FROM work w JOIN experiments e ON e.id = w.experiment_id WHERE e.name = 'restart' AND w.state = 'done'"
		if ! waitfor 60 eval '[ "$(PSQL "$SUPER" -c "$done_q" 2>/dev/null || echo 0)" -gt 100 ] || ! alive '"$pid"; then :; fi
		local was_alive=no; alive "$pid" && was_alive=yes
		"${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DATA" -m fast -w restart -l "$T/pg/log" >/dev/null 2>&1
		reap "$pid" 240
		local got; got=$(PSQL "$SUPER" -c "$done_q")
		if [ $was_alive = no ]; then fail $name "the worker ended before the restart (exit $RC)"
		elif [ $RC != 0 ]; then fail $name "worker exit $RC: $(errsay)"
		elif [ "$got" != 6000 ]; then fail $name "$got of 6000 runs done"
		else pass $name; fi
	fi
}

# -------- crafted lab files for merge
case_merge_crafted() {
	local dst; dst=$(newlab mdst)
	local before; before=$(sum "$dst")
	head -c 100000 /dev/urandom >"$T/noise.db"
	local empty=$T/empty-sqlite.db
	"$SL" --db "$empty" init >/dev/null 2>&1 && "$SL" --db "$empty" sql --write "DROP TABLE goose_db_version" >/dev/null 2>&1
	local newer; newer=$(newlab newer)
	"$SL" --db "$newer" sql --write "INSERT INTO goose_db_version (version_id, is_applied) VALUES (999999, 1)" >/dev/null 2>&1
	local badgrid; badgrid=$(newlab badgrid)
	"$SL" --db "$badgrid" sql --write "UPDATE puzzles SET grid = '11' || substr(grid, 3) WHERE id = (SELECT min(id) FROM puzzles)" >/dev/null 2>&1
	local badrun; badrun=$(newlab badrun)
	"$SL" --db "$badrun" sql --write "UPDATE runs SET generations = -5 WHERE id = (SELECT min(id) FROM runs)" >/dev/null 2>&1
	while IFS='|' read -r what src want; do
		[ -z "$what" ] && continue
		local name=merge-crafted-$what
		wanted $name || continue
		TO=60 sl --db "$dst" merge "$src"
		if [[ ",$want," != *",$RC,"* ]]; then fail $name "exit $RC (want $want): $(errsay)"
		elif [ "$(sum "$dst")" != "$before" ]; then fail $name "the destination changed"
		else pass $name; fi
	done <<EOF
not-a-database|$T/noise.db|2
no-schema|$empty|2,3
newer-schema|$newer|2,4
conflicting-givens|$badgrid|2
negative-generations|$badrun|2
itself|$dst|2
EOF
	local name=merge-crafted-dest-intact
	if wanted $name; then
		local ok; ok=$(integrity "$dst")
		if [ "$ok" != ok ]; then fail $name "$ok"; else pass $name; fi
	fi
}

case_devzero
case_where_parens_sqlite
case_jobs_cap
case_seed_overflow
case_shape_message
case_run_exit_pending
case_concurrency
case_kill9
case_disk_full
case_bad_files
case_sql_sqlite
case_merge_crafted
case_postgres

echo
echo "attack.sh: $PASSES passed, $FAILS failed"
if [ $FAILS -gt 0 ]; then
	printf '  failed: %s\n' "${FAILED[@]}"
	exit 1
fi
