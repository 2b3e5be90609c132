#!/usr/bin/env bash
# bench section "html": `feeds html` writing the digest site for ~10,000 stored cards with
# whole posts (29 generated feeds of ~350 items, every item with a content:encoded body; read
# from files: the update is setup, not measured), then a rerun with nothing changed; then
# ~100,000 cards (the same feeds as ten times as many sources), cold. Goals: the cold write
# of 10,000 under a second; the rerun rewrites (almost) nothing; the site's size on disk. `--since 2000-01-01` puts every card in the latest digest (the worst case: full
# index rows, full sort pages), `--no-images` keeps the network out.
# Run through bench/run.sh, e.g. bench/run.sh BIN --only html.
set -u
. "${BENCH_DIR:?run me through bench/run.sh}/lib.sh"

FEEDS=29 MB_EACH=1.3 COPIES=10; [ "$BENCH_QUICK" = 1 ] && FEEDS=4 COPIES=2
RES=$BENCH_WORK/runs.tsv; : >"$RES"
H=$BENCH_WORK/home; mkdir -p "$H/feeds"
echo "== html: generating $FEEDS feeds of ~$MB_EACH MB (seed $BENCH_SEED) and storing them"
for i in $(seq 1 "$FEEDS"); do
	bounded "$PY" "$BENCH_DIR/gen_feed.py" "$H/feeds/f$i.rss" --mb "$MB_EACH" --seed $((BENCH_SEED * 1000 + i)) --content 1.0 >/dev/null ||
		{ echo "  ! generator failed"; exit 1; }
	echo "feeds/f$i.rss name=\"Feed $i\" tags=t$((i % 4))"
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
	echo "   rep $rep: $files files ($((bytes / 1024)) MB on disk) written cold; rerun rewrote $rewritten of them"
	printf '%s\t%s\t%s\n' "$files" "$rewritten" "$bytes" >>"$BENCH_WORK/files.tsv"
done
echo
bounded "$PY" "$BENCH_DIR/report.py" html "$CARDS" "$RES" "$BENCH_WORK/files.tsv"

# ~100,000 cards: the same feeds as COPIES times as many sources (a card belongs to its source).
B=$BENCH_WORK/big; mkdir -p "$B/feeds"
for c in $(seq 1 "$COPIES"); do
	for i in $(seq 1 "$FEEDS"); do
		ln -sf "$H/feeds/f$i.rss" "$B/feeds/c${c}f$i.rss"
		echo "feeds/c${c}f$i.rss name=\"Feed $c-$i\" tags=t$((i % 4))"
	done
done >"$B/sources"
bounded "$BIN" --home "$B" update --all >/dev/null 2>"$LOG/update-big.err" || { echo "  ! update failed"; tail -3 "$LOG/update-big.err"; exit 1; }
BIG=$("$PY" -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from cards").fetchone()[0])' "$B/feeds.db")
BIGRES=$BENCH_WORK/big.tsv; : >"$BIGRES"
measure "$BIGRES" "feeds html" cold 1 /dev/null /dev/null "$BIN" --home "$B" html --out "$B/site" --since 2000-01-01 --no-images
"$PY" - "$BIGRES" "$BIG" "$(find "$B/site" -type f | wc -l)" "$(du -sk "$B/site" | cut -f1)" "$(du -sk "$B/feeds.db" | cut -f1)" <<'PY'
import sys
r = [l.split("\t") for l in open(sys.argv[1]) if l.strip()][0]
print("html: site for %s cards, cold: %.1f s wall, %.1f s cpu, %.0f MB peak RSS; %s files, %.0f MB on disk (the database: %.0f MB)"
      % (sys.argv[2], float(r[3]), float(r[4]), int(r[5] or 0) / 1024, sys.argv[3], int(sys.argv[4]) / 1024, int(sys.argv[5]) / 1024))
PY
