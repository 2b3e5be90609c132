#!/usr/bin/env bash
# bench section "workers" (opt-in: bench/run.sh BIN --only workers): `feeds update --worker
# --exit-when-idle` with 1, 2 and 4 workers against one PostgreSQL on loopback, and the SQLite
# single process (`feeds update`) on the same corpus for the ratio: 2,000 feeds (--feeds; 200
# with --quick) over --hosts loopback addresses (20) answering after 50 ms (the first value of
# --latency that is not 0, else 50), cold. Per run: wall, feeds/s, CPU of all workers, peak RSS
# of the largest worker; from the server's log (serve_feeds.py --log): the most times any feed
# was requested (goal 1), the most requests any host answered at once (goal: at most the
# per-host ceiling, 24, for all workers together), and the cards saved against the corpus's
# items (goal: every item once), and the statements each worker sent a feed (its own count,
# FEEDS_COUNT_STATEMENTS=1) and the server's CPU. Needs PostgreSQL's server (Debian's postgresql:
# initdb and pg_ctl, run as the account feeds-test when root) and psql; skipped with a note
# without them.
#
# As root with `ip netns` (and BENCH_NETNS not 0) each worker runs in a network namespace of its
# own, reaching PostgreSQL and the feed hosts across a veth link of its own (10.213.W.2 ->
# 10.213.W.1), as it would across a network: the hosts and the server listen on addresses put on
# lo for the run (10.213.0.1-N, 10.213.100.1), which the SQLite process reaches too, so every
# run fetches the same URLs. Set up and torn down here; without root or netns, all on loopback.
set -u
. "${BENCH_DIR:?run me through bench/run.sh}/lib.sh"

N=${BENCH_FEEDS_GIVEN:-2000}; N=${N%%,*}; [ "$BENCH_QUICK" = 1 ] && [ -z "${BENCH_FEEDS_GIVEN:-}" ] && N=200
HOSTS=${BENCH_HOSTS:-20}
LAT=50; for l in ${BENCH_LATENCIES//,/ }; do [ "$l" != 0 ] && { LAT=$l; break; }; done
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
[ -n "$PGBIN" ] && [ -x "$PGBIN/initdb" ] && [ -x "$PGBIN/psql" ] ||
	{ echo "== workers: skipped (no PostgreSQL server: apt-get install postgresql)"; exit 0; }
AS=()
if [ "$(id -u)" = 0 ]; then
	id feeds-test >/dev/null 2>&1 || { echo "== workers: skipped (as root it needs the account feeds-test: make test creates it)"; exit 0; }
	AS=(runuser -u feeds-test --)
fi

echo "== workers: $N feeds (10 distinct ~60 KB documents, copied; seed $BENCH_SEED) over $HOSTS hosts at $LAT ms"
mkdir -p "$BENCH_WORK/www"
ITEMS=0
declare -a BASE_ITEMS
for i in $(seq 0 9); do
	out=$(bounded "$PY" "$BENCH_DIR/gen_feed.py" "$BENCH_WORK/base$i.rss" --mb 0.06 --seed $((BENCH_SEED * 100 + i))) ||
		{ echo "  ! generator failed"; exit 1; }
	BASE_ITEMS[$i]=$(echo "$out" | sed -n 's/.*items=\([0-9]*\).*/\1/p')
done
for i in $(seq 0 $((N - 1))); do
	ln "$BENCH_WORK/base$((i % 10)).rss" "$BENCH_WORK/www/f$i.rss" 2>/dev/null || cp "$BENCH_WORK/base$((i % 10)).rss" "$BENCH_WORK/www/f$i.rss"
	ITEMS=$((ITEMS + BASE_ITEMS[i % 10]))
done

# A folder of its own: the bench's work folder is private to its owner, and the server runs as feeds-test.
PGDIR=$(mktemp -d "${TMPDIR:-/tmp}/feeds-bench-pg.XXXXXX") PG_PORT=
SRV_PID=
NETNS=() ADDRS=()
stop_all() {
	[ -n "$SRV_PID" ] && kill "$SRV_PID" 2>/dev/null && wait "$SRV_PID" 2>/dev/null; SRV_PID=
	[ -n "$PG_PORT" ] && "${AS[@]}" "$PGBIN/pg_ctl" stop -m immediate -w -D "$PGDIR/data" >/dev/null 2>&1; PG_PORT=
	local ns a
	for ns in "${NETNS[@]}"; do ip netns del "$ns" 2>/dev/null; done   # takes its veth pair with it
	for a in "${ADDRS[@]}"; do ip addr del "$a/32" dev lo 2>/dev/null; done
	NETNS=() ADDRS=()
	rm -rf "$PGDIR"
}
trap stop_all EXIT

# Network namespaces: one per worker (at most 4), each with a veth link to this namespace.
HOSTPREFIX=127.0.0. PGHOST=127.0.0.1
ns_worker() { echo "feedsb$$w$1"; }
if [ "${BENCH_NETNS:-1}" = 0 ]; then
	echo "  (network namespaces off: BENCH_NETNS=0; workers on loopback)"
elif [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null || ! ip netns add "feedsb$$probe" 2>/dev/null; then
	echo "  (no network namespaces: they need root and ip netns; workers on loopback)"
else
	ip netns del "feedsb$$probe"
	HOSTPREFIX=10.213.0. PGHOST=10.213.100.1
	for a in $(seq 1 "$HOSTS") ; do ADDRS+=("10.213.0.$a"); done; ADDRS+=("$PGHOST")
	for a in "${ADDRS[@]}"; do ip addr add "$a/32" dev lo || { echo "  ! could not add $a to lo"; exit 1; }; done
	for w in 1 2 3 4; do
		ns=$(ns_worker "$w"); ip netns add "$ns" || { echo "  ! ip netns add $ns failed"; exit 1; }; NETNS+=("$ns")
		ip link add "fb$$h$w" type veth peer name "fb$$n$w" &&
			ip link set "fb$$n$w" netns "$ns" &&
			ip addr add "10.213.$w.1/24" dev "fb$$h$w" && ip link set "fb$$h$w" up &&
			ip -n "$ns" link set lo up &&
			ip -n "$ns" addr add "10.213.$w.2/24" dev "fb$$n$w" && ip -n "$ns" link set "fb$$n$w" up &&
			ip -n "$ns" route add default via "10.213.$w.1" || { echo "  ! veth link of $ns failed"; exit 1; }
	done
	echo "  (each worker in a network namespace of its own, reaching PostgreSQL at $PGHOST and the hosts at ${HOSTPREFIX}1-$HOSTS across a veth link)"
fi
[ ${#AS[@]} = 0 ] || chown feeds-test "$PGDIR"
( cd / && "${AS[@]}" "$PGBIN/initdb" -D "$PGDIR/data" -U feeds -A trust >"$LOG/initdb.out" 2>&1 ) ||
	{ echo "  ! initdb failed"; tail -n 3 "$LOG/initdb.out"; exit 1; }
# The workers' own addresses (10.213.W.2) connect as on loopback.
[ "$PGHOST" = 127.0.0.1 ] || echo "host all all 10.213.0.0/16 trust" >>"$PGDIR/data/pg_hba.conf"
PORT_TRY=$((40000 + RANDOM % 20000))
( cd / && "${AS[@]}" "$PGBIN/pg_ctl" start -w -D "$PGDIR/data" -l "$PGDIR/server.log" \
	-o "-c listen_addresses=127.0.0.1$([ "$PGHOST" = 127.0.0.1 ] || echo ",$PGHOST") -c port=$PORT_TRY -c unix_socket_directories=$PGDIR -c fsync=off -c max_connections=40" \
	>"$LOG/pg_ctl.out" 2>&1 ) || { echo "  ! PostgreSQL did not start"; tail -n 5 "$PGDIR/server.log"; exit 1; }
PG_PORT=$PORT_TRY

start_server() {
	[ -n "$SRV_PID" ] && kill "$SRV_PID" 2>/dev/null && wait "$SRV_PID" 2>/dev/null
	rm -f "$BENCH_WORK/port" "$BENCH_WORK/requests.log"
	"$PY" "$BENCH_DIR/serve_feeds.py" "$BENCH_WORK/www" --port-file "$BENCH_WORK/port" --latency-ms "$LAT" \
		--hosts "$HOSTS" --address-prefix "$HOSTPREFIX" --max-seconds $((STEP_TIMEOUT * 6)) --log "$BENCH_WORK/requests.log" >"$LOG/serve.out" 2>&1 &
	SRV_PID=$!
	for _ in $(seq 300); do [ -s "$BENCH_WORK/port" ] && break; sleep 0.1; done
	[ -s "$BENCH_WORK/port" ] || { echo "  ! server did not start"; exit 1; }
	PORT=$(cat "$BENCH_WORK/port")
}
sources() { local i; for i in $(seq 0 $((N - 1))); do echo "http://$HOSTPREFIX$((1 + i % HOSTS)):$PORT/f$i.rss"; done; }
# CPU seconds of the server so far: the postmaster and the backends it has reaped.
pg_cpu() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15 + $16 + $17) / hz}' "/proc/$(head -n1 "$PGDIR/data/postmaster.pid")/stat"; }

printf '  %-22s %8s %8s %8s %8s %10s %10s %10s %12s %8s\n' run wall_s feeds/s cpu_s pg_cpu_s rss_MB max_fetch max_host cards/items stmt/feed
DB=0
for workers in sqlite 1 2 4; do
	start_server
	home=$BENCH_WORK/home-$workers; rm -rf "$home"; mkdir -p "$home"; sources >"$home/sources"
	db=()
	if [ "$workers" != sqlite ]; then
		DB=$((DB + 1)); "$PGBIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U feeds "w$DB" || { echo "  ! createdb failed"; exit 1; }
		db=(--database "postgresql://feeds@127.0.0.1:$PG_PORT/w$DB")
	fi
	"$BENCH_BIN" --home "$home" "${db[@]}" sources >/dev/null 2>"$LOG/sources-$workers.err"   # the list in the database first
	[ "$workers" = sqlite ] || db=(--database "postgresql://feeds@$PGHOST:$PG_PORT/w$DB")
	pg0=$(pg_cpu)
	t0=$(date +%s%N)
	pids=()
	for w in $(seq 1 "$([ "$workers" = sqlite ] && echo 1 || echo "$workers")"); do
		if [ "$workers" = sqlite ]; then cmd=(update --allow-internal); else cmd=(update --worker --exit-when-idle --allow-internal); fi
		inns=(); [ "$workers" != sqlite ] && [ ${#NETNS[@]} -gt 0 ] && inns=(ip netns exec "$(ns_worker "$w")")
		FEEDS_COUNT_STATEMENTS=1 timed "$BENCH_WORK/time-$workers-$w" "${inns[@]}" timeout -k 5 "$STEP_TIMEOUT" "$BENCH_BIN" --home "$home" "${db[@]}" "${cmd[@]}" \
			>/dev/null 2>"$LOG/update-$workers-$w.err" &
		pids+=($!)
	done
	rc=0; for p in "${pids[@]}"; do wait "$p" || rc=$?; done
	t1=$(date +%s%N)
	wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", (b-a)/1e9}')
	sleep 0.2   # the last backends reaped
	pgcpu=$(awk -v a="$pg0" -v b="$(pg_cpu)" 'BEGIN{printf "%.2f", b-a}')
	# "statements: N for M sources (...)", one line a worker.
	stmts=$(cat "$LOG"/update-$workers-*.err | awk '/statements: /{for (i=1;i<=NF;i++) if ($i=="statements:") {s+=$(i+1); n+=$(i+3)}} END{if (n) printf "%.1f", s/n; else print "-"}')
	cpu=$(cat "$BENCH_WORK"/time-$workers-* | awk -F': ' '/User time/{t+=$2} /System time/{t+=$2} END{printf "%.2f", t}')
	rss=$(cat "$BENCH_WORK"/time-$workers-* | awk -F': ' '/Maximum resident/{if ($2>m) m=$2} END{printf "%.1f", m/1024}')
	maxfetch=$(awk '{print $2}' "$BENCH_WORK/requests.log" | sort | uniq -c | sort -rn | awk 'NR==1{print $1}')
	maxhost=$(awk '{if ($3>m[$1]) m[$1]=$3} END{for (h in m) if (m[h]>t) t=m[h]; print t+0}' "$BENCH_WORK/requests.log")
	if [ "$workers" = sqlite ]; then
		cards=$("$PY" -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from cards").fetchone()[0])' "$home/feeds.db")
	else
		cards=$("$PGBIN/psql" -At -h 127.0.0.1 -p "$PG_PORT" -U feeds -d "w$DB" -c "select count(*) from cards")
	fi
	[ "$workers" = sqlite ] && { pgcpu=-; stmts=-; }
	printf '  %-22s %8s %8s %8s %8s %10s %10s %10s %12s %8s%s\n' "$([ "$workers" = sqlite ] && echo "SQLite, 1 process" || echo "PostgreSQL, $workers worker$([ "$workers" = 1 ] || echo s)")" \
		"$wall" "$(awk -v n="$N" -v w="$wall" 'BEGIN{printf "%.0f", n/w}')" "$cpu" "$pgcpu" "$rss" "${maxfetch:-0}" "$maxhost" "$cards/$ITEMS" "$stmts" \
		"$([ "$rc" = 0 ] || echo "  ! exit $rc")"
done
echo "  (goals: max_fetch 1, max_host <= 24, cards = items; rss_MB is the largest worker's peak; cpu_s all workers together, pg_cpu_s the server's; stmt/feed each worker's round trips to it)"
