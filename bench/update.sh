#!/usr/bin/env bash
# bench section "update": `feeds update --all` of generated feeds served on loopback by
# --hosts addresses (127.0.0.1 ... 127.0.0.N: the first 40 feeds on 127.0.0.1, as on a feed hub,
# the rest spread over the others), side by side with sfeed_update and newsboat -x reload, for
# each size of --feeds (default 200; 40 with --quick) and each latency of --latency (default 0
# and 50 ms per response). For each size, latency and rep: a fresh state folder per tool, a cold
# pass (every feed new), then passes until every tool is all 304s (newsboat 2.21 stores
# validators only from its 2nd fetch, so the 3rd pass is the one compared).
# Goals (issue 21): cold <= 1/4 of sfeed_update's wall time at every size, wall time per feed
# flat or falling as the list grows; all-304 pass of 5,000 feeds < 2 s at 0 ms and within 1.5x
# of feeds / (hosts x 24 per host) round trips at 50 ms; feeds' peak RSS <= 40 MB at every
# size; every item of the corpus saved (the generator's count).
# Run through bench/run.sh, e.g. bench/run.sh BIN --only update --feeds 200,1000,5000 --reps 1.
set -u
. "${BENCH_DIR:?run me through bench/run.sh}/lib.sh"

SIZES=${BENCH_FEEDS:-200}; [ "$BENCH_QUICK" = 1 ] && [ -z "${BENCH_FEEDS_GIVEN:-}" ] && SIZES=40
HOSTS=${BENCH_HOSTS:-20}
LATENCIES=${BENCH_LATENCIES:-0,50}
PEERS=${BENCH_PEERS:-sfeed_update,newsboat}
THREADS=8                       # newsboat reload-threads and sfeed maxjobs (feeds: its defaults)
RES=$BENCH_WORK/runs.tsv ITEMS=$BENCH_WORK/items.tsv CORPUS=$BENCH_WORK/corpus.tsv
: >"$RES"; : >"$ITEMS"; : >"$CORPUS"
case $HOSTS in ''|*[!0-9]*) echo "  ! --hosts must be 1..254"; exit 1 ;; esac
[ "$HOSTS" -ge 1 ] && [ "$HOSTS" -le 254 ] || { echo "  ! --hosts must be 1..254"; exit 1; }
MAX=0; for n in ${SIZES//,/ }; do [ "$n" -gt "$MAX" ] && MAX=$n; done

echo "== update: generating $MAX feeds (10 distinct ~60 KB documents, copied; seed $BENCH_SEED)"
mkdir -p "$BENCH_WORK/www"
declare -a BASE_ITEMS
for i in $(seq 0 9); do
	out=$(bounded "$PY" "$BENCH_DIR/gen_feed.py" "$BENCH_WORK/base$i.rss" --mb 0.06 --seed $((BENCH_SEED * 100 + i))) ||
		{ echo "  ! generator failed"; exit 1; }
	BASE_ITEMS[$i]=$(echo "$out" | sed -n 's/.*items=\([0-9]*\).*/\1/p')
done
for i in $(seq 0 $((MAX - 1))); do ln "$BENCH_WORK/base$((i % 10)).rss" "$BENCH_WORK/www/f$i.rss" 2>/dev/null ||
	cp "$BENCH_WORK/base$((i % 10)).rss" "$BENCH_WORK/www/f$i.rss"; done
# items in the first N feeds: what every tool should have stored after its cold pass
corpus_items() { local n=$1 i t=0; for i in $(seq 0 $((n - 1))); do t=$((t + BASE_ITEMS[i % 10])); done; echo "$t"; }

SRV_PID=
stop_server() { [ -n "$SRV_PID" ] && kill "$SRV_PID" 2>/dev/null; wait "$SRV_PID" 2>/dev/null; SRV_PID=; }
trap stop_server EXIT
start_server() {  # start_server LATENCY_MS: sets PORT
	stop_server
	rm -f "$BENCH_WORK/port"
	"$PY" "$BENCH_DIR/serve_feeds.py" "$BENCH_WORK/www" --port-file "$BENCH_WORK/port" --latency-ms "$1" \
		--hosts "$HOSTS" --max-seconds $((STEP_TIMEOUT * 12)) >"$LOG/serve.out" 2>&1 &
	SRV_PID=$!
	for _ in $(seq 300); do [ -s "$BENCH_WORK/port" ] && break; sleep 0.1; done
	[ -s "$BENCH_WORK/port" ] || { echo "  ! server did not start"; cat "$LOG/serve.out"; exit 1; }
	PORT=$(cat "$BENCH_WORK/port")
}
# urls N: the feeds' addresses, one a line (the first 40 on 127.0.0.1, then round robin)
urls() {
	local i h
	for i in $(seq 0 $(($1 - 1))); do
		if [ "$HOSTS" -le 1 ] || [ "$i" -lt 40 ]; then h=1; else h=$((2 + (i - 40) % (HOSTS - 1))); fi
		echo "http://127.0.0.$h:$PORT/f$i.rss"
	done
}

HAVE_SFEED=0 HAVE_NB=0
case ",$PEERS," in *,sfeed_update,*) have sfeed_update sfeed curl && HAVE_SFEED=1 ;; esac
case ",$PEERS," in *,newsboat,*) have newsboat && HAVE_NB=1 ;; esac

# count TOOL LABEL N: items the tool stored after the pass (untimed)
count() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$ITEMS"; }
db_count() { "$PY" -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from " + sys.argv[2]).fetchone()[0])' "$@"; }

for n in ${SIZES//,/ }; do
	printf '%s\t%s\n' "$n" "$(corpus_items "$n")" >>"$CORPUS"
	for latency in ${LATENCIES//,/ }; do
		start_server "$latency"
		echo "== update: $n feeds, $HOSTS hosts, latency ${latency} ms, port $PORT"
		for rep in $(seq "$BENCH_REPS"); do
			st=$BENCH_WORK/state.$rep; rm -rf "$st"; mkdir -p "$st"
			# feeds: a home folder with the sources file
			mkdir -p "$st/feeds"
			urls "$n" >"$st/feeds/sources"
			# newsboat: urls file and config
			mkdir -p "$st/nb"; cp "$st/feeds/sources" "$st/nb/urls"
			printf 'reload-threads %s\ndownload-timeout 15\n' "$THREADS" >"$st/nb/config"
			# sfeed: sfeedrc with ETag-based conditional GET and gzip
			mkdir -p "$st/sf/etags"
			{
				printf 'sfeedpath="%s/sf/feeds"\nmaxjobs=%s\n' "$st" "$THREADS"
				cat <<SFEEDRC
fetch() {
	etag="$st/sf/etags/\$(printf '%s' "\$1" | tr '/' '_')"
	curl -L --max-redirs 0 -H "User-Agent:" -f -s -m 15 --compressed \\
		--etag-compare "\$etag" --etag-save "\$etag" "\$2" 2>/dev/null
}
feeds() {
SFEEDRC
				awk '{printf "\tfeed \"f%05d\" \"%s\"\n", NR - 1, $0}' "$st/feeds/sources"
				echo "}"
			} >"$st/sf/sfeedrc"
			for pass in cold 2nd 3rd; do
				label=n$n.$pass@${latency}ms
				measure "$RES" feeds "$label" "$rep" /dev/null /dev/null "$BIN" --home "$st/feeds" update --all
				[ "$rep" = 1 ] && count feeds "$label" "$(db_count "$st/feeds/feeds.db" cards)"
				if [ "$HAVE_SFEED" = 1 ]; then
					measure "$RES" sfeed_update "$label" "$rep" /dev/null /dev/null sfeed_update "$st/sf/sfeedrc"
					[ "$rep" = 1 ] && count sfeed_update "$label" "$(cat "$st"/sf/feeds/* 2>/dev/null | wc -l)"
				fi
				if [ "$HAVE_NB" = 1 ]; then
					measure "$RES" newsboat "$label" "$rep" /dev/null /dev/null \
						newsboat -u "$st/nb/urls" -c "$st/nb/cache.db" -C "$st/nb/config" -x reload
					[ "$rep" = 1 ] && count newsboat "$label" "$(db_count "$st/nb/cache.db" rss_item)"
				fi
			done
			rm -rf "$st"
		done
	done
done
stop_server

echo
bounded "$PY" "$BENCH_DIR/report.py" update "$HOSTS" "$RES" "$ITEMS" "$CORPUS"
echo
v="feeds $("$BIN" --version 2>/dev/null | awk '{print $NF}')"
[ "$HAVE_SFEED" = 1 ] && v="$v; sfeed $(dpkg-query -W -f '${Version}' sfeed 2>/dev/null || echo '?')"
[ "$HAVE_NB" = 1 ] && v="$v; $(newsboat --version 2>/dev/null | head -n1 | cut -d' ' -f1-2)"
echo "versions: $v"
