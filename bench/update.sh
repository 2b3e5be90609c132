#!/usr/bin/env bash
# bench section "update": `feeds update` of 200 generated feeds served on loopback, side by side
# with sfeed_update and newsboat -x reload. For each latency (0 and 50 ms per response) and rep:
# a fresh state folder per tool, a cold pass (every feed new), then passes until every tool is
# all 304s (newsboat 2.21 stores validators only from its 2nd fetch, so the 3rd pass is the one
# compared). Goals: cold update <= 1/4 of sfeed_update's wall time; all-304 pass at 50 ms latency
# <= 1/2 of the best peer's; feeds' peak RSS <= 40 MB.
# Run through bench/run.sh, e.g. bench/run.sh BIN --only update.
set -u
. "${BENCH_DIR:?run me through bench/run.sh}/lib.sh"

FEEDS=200; [ "$BENCH_QUICK" = 1 ] && FEEDS=40
THREADS=8                       # newsboat reload-threads and sfeed maxjobs (feeds: its defaults)
RES=$BENCH_WORK/runs.tsv ITEMS=$BENCH_WORK/items.tsv
: >"$RES"; : >"$ITEMS"

echo "== update: generating $FEEDS feeds (10 distinct ~60 KB documents, copied; seed $BENCH_SEED)"
mkdir -p "$BENCH_WORK/www"
for i in $(seq 0 9); do
	bounded "$PY" "$BENCH_DIR/gen_feed.py" "$BENCH_WORK/base$i.rss" --mb 0.06 --seed $((BENCH_SEED * 100 + i)) >/dev/null ||
		{ echo "  ! generator failed"; exit 1; }
done
for i in $(seq 0 $((FEEDS - 1))); do cp "$BENCH_WORK/base$((i % 10)).rss" "$BENCH_WORK/www/f$i.rss"; done

SRV_PID=
stop_server() { [ -n "$SRV_PID" ] && kill "$SRV_PID" 2>/dev/null; wait "$SRV_PID" 2>/dev/null; SRV_PID=; }
trap stop_server EXIT
start_server() {  # start_server LATENCY_MS: sets BASE
	stop_server
	rm -f "$BENCH_WORK/port"
	"$PY" "$BENCH_DIR/serve_feeds.py" "$BENCH_WORK/www" --port-file "$BENCH_WORK/port" --latency-ms "$1" \
		--max-seconds "$STEP_TIMEOUT" >"$LOG/serve.out" 2>&1 &
	SRV_PID=$!
	for _ in $(seq 100); do [ -s "$BENCH_WORK/port" ] && break; sleep 0.1; done
	[ -s "$BENCH_WORK/port" ] || { echo "  ! server did not start"; cat "$LOG/serve.out"; exit 1; }
	BASE=http://127.0.0.1:$(cat "$BENCH_WORK/port")
}

HAVE_SFEED=0 HAVE_NB=0
have sfeed_update sfeed curl && HAVE_SFEED=1
have newsboat && HAVE_NB=1

# count TOOL PASS N: items the tool stored after the pass (untimed)
count() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$ITEMS"; }

for latency in 0 50; do
	start_server "$latency"
	echo "== update: latency ${latency} ms, server $BASE"
	for rep in $(seq "$BENCH_REPS"); do
		st=$BENCH_WORK/state.$rep; rm -rf "$st"; mkdir -p "$st"
		# feeds: a home folder with the sources file
		mkdir -p "$st/feeds"
		for i in $(seq 0 $((FEEDS - 1))); do echo "$BASE/f$i.rss"; done >"$st/feeds/sources"
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
			awk '{printf "\tfeed \"f%03d\" \"%s\"\n", NR - 1, $0}' "$st/feeds/sources"
			echo "}"
		} >"$st/sf/sfeedrc"
		for pass in cold 2nd 3rd; do
			label=$pass@${latency}ms
			measure "$RES" feeds "$label" "$rep" /dev/null /dev/null "$BIN" --home "$st/feeds" update --all
			[ "$rep" = 1 ] && count feeds "$label" "$("$PY" -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from cards").fetchone()[0])' "$st/feeds/feeds.db")"
			if [ "$HAVE_SFEED" = 1 ]; then
				measure "$RES" sfeed_update "$label" "$rep" /dev/null /dev/null sfeed_update "$st/sf/sfeedrc"
				[ "$rep" = 1 ] && count sfeed_update "$label" "$(cat "$st"/sf/feeds/* 2>/dev/null | wc -l)"
			fi
			if [ "$HAVE_NB" = 1 ]; then
				measure "$RES" newsboat "$label" "$rep" /dev/null /dev/null \
					newsboat -u "$st/nb/urls" -c "$st/nb/cache.db" -C "$st/nb/config" -x reload
				[ "$rep" = 1 ] && count newsboat "$label" "$("$PY" -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from rss_item").fetchone()[0])' "$st/nb/cache.db")"
			fi
		done
		rm -rf "$st"
	done
done
stop_server

echo
bounded "$PY" "$BENCH_DIR/report.py" update "$FEEDS" "$RES" "$ITEMS"
echo
v="feeds $("$BIN" --version 2>/dev/null | awk '{print $NF}')"
[ "$HAVE_SFEED" = 1 ] && v="$v; sfeed $(dpkg-query -W -f '${Version}' sfeed 2>/dev/null || echo '?')"
[ "$HAVE_NB" = 1 ] && v="$v; $(newsboat --version 2>/dev/null | head -n1 | cut -d' ' -f1-2)"
echo "versions: $v"
