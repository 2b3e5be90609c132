#!/usr/bin/env bash
# bench section "read": `feeds read --limit 50` and `feeds search` on a database of 100,000
# cards (10,000 with --quick). Goal: under 50 ms each (an index scan, never a sort of every card).
# Then `feeds browse` on it (bench/browse_pty.py): first screen (goal < 100 ms), keypress to
# redraw (goal < 16 ms), peak RSS.
# The database is real: 100 generated feed files (20 with --quick) saved by `feeds update`, then copied through SQL into older, already-read variants until the count is reached (same
# schema, same triggers: the copies queue for the search index like any saved card). One
# untimed search indexes that backlog first (its time is shown as "index backlog"). The copies'
# keys of the title order wait in its log as a running update's do, until the end of an update
# moves them (migration 17): one untimed `feeds update` (nothing due) ends as the updates that
# saved such cards did, so that the reads see the title order as it is between updates.
# Run through bench/run.sh, e.g. bench/run.sh BIN --only read.
set -u
. "${BENCH_DIR:?run me through bench/run.sh}/lib.sh"

TARGET=100000 FEEDS=100; [ "$BENCH_QUICK" = 1 ] && TARGET=10000 FEEDS=20
RES=$BENCH_WORK/runs.tsv INFO=$BENCH_WORK/info.tsv
: >"$RES"; : >"$INFO"
H=$BENCH_WORK/home
mkdir -p "$H/www"

echo "== read: generating $FEEDS feeds (~200 items each; seed $BENCH_SEED) and saving them"
for i in $(seq 0 $((FEEDS - 1))); do
	bounded "$PY" "$BENCH_DIR/gen_feed.py" "$H/www/f$i.rss" --mb 0.5 --seed $((BENCH_SEED * 1000 + i)) >/dev/null ||
		{ echo "  ! generator failed"; exit 1; }
	echo "www/f$i.rss name=\"Feed $i\"" >>"$H/sources"
done
bounded "$BIN" --home "$H" update --all >/dev/null 2>"$LOG/update.err" || { echo "  ! update failed"; tail -3 "$LOG/update.err"; exit 1; }
bounded "$PY" - "$H/feeds.db" "$TARGET" <<'PY' || { echo "  ! could not grow the database"; exit 1; }
import sqlite3, sys
db = sqlite3.connect(sys.argv[1]); target = int(sys.argv[2])
saved = db.execute("select count(*) from cards").fetchone()[0]
copy = 1
while db.execute("select count(*) from cards").fetchone()[0] < target:
    # A week older per copy, read, same text: what months of a busy subscription list look like.
    db.execute("""
        INSERT INTO cards (source_id, card_key, guid, title, description, link, image, published, updated,
                           author, kind, enclosures, content_hash, first_seen_at, changed_at, last_seen_at,
                           is_read, sort_date)
        SELECT source_id, card_key || '#' || ?1, guid, title, description, link, image,
               published - ?1 * 604800, updated - ?1 * 604800, author, kind, enclosures, content_hash,
               first_seen_at - ?1 * 604800, changed_at - ?1 * 604800, last_seen_at - ?1 * 604800, 1,
               sort_date - ?1 * 604800
        FROM cards WHERE instr(card_key, '#') = 0
        LIMIT ?2""", (copy, target - db.execute("select count(*) from cards").fetchone()[0]))
    copy += 1
db.commit()
print("  %d cards saved by feeds update, %d after copying" % (saved, db.execute("select count(*) from cards").fetchone()[0]))
PY
t0=$(date +%s%N)
bounded "$BIN" --home "$H" search zzzzunmatched >/dev/null 2>"$LOG/index.err"
t1=$(date +%s%N)
printf 'index_backlog_s\t%s\n' "$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", (b-a)/1e9}')" >>"$INFO"
bounded "$BIN" --home "$H" update >/dev/null 2>"$LOG/settle.err" || { echo "  ! the settling update failed"; tail -3 "$LOG/settle.err"; exit 1; }
printf 'cards\t%s\n' "$("$PY" -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from cards").fetchone()[0])' "$H/feeds.db")" >>"$INFO"
printf 'db_mb\t%s\n' "$(du -m "$H/feeds.db" | cut -f1)" >>"$INFO"
echo "  search index backlog: $(grep index_backlog "$INFO" | cut -f2) s"

# q LABEL ARGS...: one query, BENCH_REPS times (after one warm-up run), output to /dev/null (piped: plain text).
q() {
	local label=$1 rep; shift
	"$BIN" --home "$H" "$@" >/dev/null 2>&1
	for rep in $(seq "$BENCH_REPS"); do measure "$RES" feeds "$label" "$rep" /dev/null /dev/null "$BIN" --home "$H" "$@"; done
}
echo "== read: queries on $(grep '^cards' "$INFO" | cut -f2) cards"
q "read_newest"        read --limit 50 --keep-unread
q "read_unread"        read --limit 50 --unread --keep-unread
q "read_oldest"        read --limit 50 --sort oldest --keep-unread
q "read_source"        read --limit 50 --sort source --keep-unread
q "read_title"         read --limit 50 --sort title --keep-unread
q "read_one_source"    read --limit 50 --source "Feed 7" --keep-unread
q "read_json"          read --limit 50 --json --keep-unread
q "read_marking"       read --limit 50 --unread
# The generator has a small vocabulary: "compiler" is in ~70% of the cards, the three-word AND in
# ~40%, the phrase in ~1%. Relevance computes bm25 for every match (no index can hold it).
q "search_relevance"   search compiler --limit 50
q "search_newest"      search compiler --limit 50 --sort newest
q "search_phrase"      search '"release notes"' --limit 50
q "search_and3"        search 'parser AND kernel AND coffee' --limit 50
q "search_unread"      search compiler --limit 50 --unread
q "search_source"      search compiler --limit 50 --source "Feed 7"
q "version"            --version

echo
bounded "$PY" "$BENCH_DIR/report.py" read "$RES" "$INFO"

# feeds browse on the same database, on a pseudo-terminal of 30 x 100 (bench/browse_pty.py):
# start-up to the first frame, then keypress to the end of the frame it causes (medians).
echo
echo "== read: feeds browse on $(grep '^cards' "$INFO" | cut -f2) cards (goals: first screen < 100 ms, a redraw < 16 ms)"
if bounded "$PY" "$BENCH_DIR/browse_pty.py" "$BIN" "$H" "$BENCH_WORK/browse.tsv" --reps 20 2>"$LOG/browse.err"; then
	printf '  %-28s %10s %10s\n' "" "wall" "cpu"
	awk -F'\t' '{ printf "  %-28s %10s %10s\n", $1, $2, $3 }' "$BENCH_WORK/browse.tsv"
else
	echo "  ! browse bench failed"; tail -3 "$LOG/browse.err"; exit 1
fi
