#!/usr/bin/env bash
# bench section "html": `feeds html` writing the digest site for 10,000 stored cards (20
# generated feeds of ~500 items, read from files: the update is setup, not measured), then a
# rerun with nothing changed. Goals: the cold write under a second; the rerun rewrites (almost)
# nothing. `--since 2000-01-01` puts every card in the latest digest (the worst case: full
# index rows, full sort pages), `--no-images` keeps the network out.
# Run through bench/run.sh, e.g. bench/run.sh BIN --only html.
set -u
. "${BENCH_DIR:?run me through bench/run.sh}/lib.sh"

FEEDS=20 MB_EACH=1.3; [ "$BENCH_QUICK" = 1 ] && FEEDS=4
RES=$BENCH_WORK/runs.tsv; : >"$RES"
H=$BENCH_WORK/home; mkdir -p "$H/feeds"
echo "== html: generating $FEEDS feeds of ~$MB_EACH MB (seed $BENCH_SEED) and storing them"
for i in $(seq 1 "$FEEDS"); do
	bounded "$PY" "$BENCH_DIR/gen_feed.py" "$H/feeds/f$i.rss" --mb "$MB_EACH" --seed $((BENCH_SEED * 1000 + i)) >/dev/null ||
		{ echo "  ! generator failed"; exit 1; }
	echo "feeds/f$i.rss name=\"Feed $i\""
done >"$H/sources"
bounded "$BIN" --home "$H" update --all >/dev/null 2>"$LOG/update.err" || { echo "  ! update failed"; tail -3 "$LOG/update.err"; exit 1; }
CARDS=$("$PY" -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from cards").fetchone()[0])' "$H/feeds.db")
echo "   $CARDS cards stored"

for rep in $(seq "$BENCH_REPS"); do
	site=$BENCH_WORK/site.$rep; rm -rf "$site"
	measure "$RES" "feeds html" cold "$rep" /dev/null /dev/null "$BIN" --home "$H" html --out "$site" --since 2000-01-01 --no-images
	files=$(find "$site" -type f | wc -l)
	bytes=$(du -sk "$site" | cut -f1)
	touch "$BENCH_WORK/marker"; sleep 0.05
	measure "$RES" "feeds html" rerun "$rep" /dev/null /dev/null "$BIN" --home "$H" html --out "$site" --since 2000-01-01 --no-images
	rewritten=$(find "$site" -type f -newer "$BENCH_WORK/marker" | wc -l)
	echo "   rep $rep: $files files ($((bytes / 1024)) MB) written cold; rerun rewrote $rewritten of them"
	printf '%s\t%s\t%s\n' "$files" "$rewritten" "$bytes" >>"$BENCH_WORK/files.tsv"
done
echo
bounded "$PY" "$BENCH_DIR/report.py" html "$CARDS" "$RES" "$BENCH_WORK/files.tsv"
