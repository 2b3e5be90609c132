#!/usr/bin/env bash
# bench section "parse": throughput and peak memory of `feeds parse --json FILE` on generated
# RSS 2.0 feeds (bench/gen_feed.py, sizes BENCH_MB), against sfeed (C, stdin to TSV),
# xmllint --stream (libxml2's reader: the floor for a libxml2-based parser) and Python's
# feedparser (first file only, at most 2 runs: it takes ~6 s per 20 MB).
# Items are counted outside the timed runs so the table shows every tool read the same items.
# Run through bench/run.sh (which sets BENCH_*), e.g. bench/run.sh BIN --only parse.
set -u
. "${BENCH_DIR:?run me through bench/run.sh}/lib.sh"

RES=$BENCH_WORK/runs.tsv ITEMS=$BENCH_WORK/items.tsv FILES=$BENCH_WORK/files.tsv
: >"$RES"; : >"$ITEMS"; : >"$FILES"
IFS=, read -ra SIZES <<<"$BENCH_MB"

echo "== parse: generating ${SIZES[*]} MB RSS 2.0 feeds (seed $BENCH_SEED)"
files=()
for mb in "${SIZES[@]}"; do
	f=$BENCH_WORK/${mb}MB.rss
	out=$(bounded "$PY" "$BENCH_DIR/gen_feed.py" "$f" --mb "$mb" --seed "$BENCH_SEED") || {
		echo "  ! generator failed for $mb MB: $out"; exit 1; }
	# files.tsv: name bytes items(generator)
	printf '%s\t%s\t%s\n' "$(basename "$f")" "${out##*bytes=}" "$(echo "$out" | sed 's/^items=\([0-9]*\).*/\1/')" >>"$FILES"
	echo "  $(basename "$f"): $out"
	files+=("$f")
done

HAVE_SFEED=0 HAVE_XMLLINT=0 HAVE_FP=0
have sfeed && HAVE_SFEED=1
have xmllint && HAVE_XMLLINT=1
have_py_module feedparser python3-feedparser && HAVE_FP=1
FP_REPS=$(( BENCH_REPS < 2 ? BENCH_REPS : 2 ))

echo "== parse: timing ($BENCH_REPS reps; feedparser $FP_REPS on $(basename "${files[0]}") only)"
for f in "${files[@]}"; do
	# one rep of every tool, then the next rep: slow drift on a shared machine hits all alike
	for rep in $(seq "$BENCH_REPS"); do
		measure "$RES" feeds "$f" "$rep" /dev/null /dev/null "$BIN" parse --json "$f"
		[ "$HAVE_SFEED" = 1 ] && measure "$RES" sfeed "$f" "$rep" "$f" /dev/null sfeed
		[ "$HAVE_XMLLINT" = 1 ] && measure "$RES" "xmllint --stream" "$f" "$rep" /dev/null /dev/null \
			xmllint --stream --noout "$f"
	done
done
if [ "$HAVE_FP" = 1 ]; then
	f=${files[0]}
	for rep in $(seq "$FP_REPS"); do
		o=$LOG/feedparser.$(basename "$f").$rep.out
		measure "$RES" feedparser "$f" "$rep" /dev/null "$o" "$PY" -c 'import feedparser, sys
d = feedparser.parse(open(sys.argv[1], "rb").read()); print(len(d.entries))' "$f"
		n=$(grep -o '^[0-9]*' "$o" | head -n1)
		[ "$rep" = 1 ] && printf 'feedparser\t%s\t%s\n' "$(basename "$f")" "${n:--}" >>"$ITEMS"
	done
fi

echo "== parse: counting items (untimed)"
for f in "${files[@]}"; do
	name=$(basename "$f")
	n=$(bounded "$BIN" parse --json "$f" 2>"$LOG/feeds.count.$name.err" |
		bounded "$PY" -c 'import json, sys
print(len(json.load(sys.stdin)["entries"]))' 2>"$LOG/feeds.count.$name.pyerr")
	[ -n "$n" ] || { n=-; echo "  ! feeds parse --json $name did not give valid JSON:";
		tail -n 2 "$LOG/feeds.count.$name.err" "$LOG/feeds.count.$name.pyerr" | sed 's/^/    /'; }
	printf 'feeds\t%s\t%s\n' "$name" "$n" >>"$ITEMS"
	if [ "$HAVE_SFEED" = 1 ]; then
		n=$(bounded sfeed <"$f" 2>/dev/null | wc -l)
		printf 'sfeed\t%s\t%s\n' "$name" "$n" >>"$ITEMS"
	fi
done

echo
bounded "$PY" "$BENCH_DIR/report.py" parse "$FILES" "$RES" "$ITEMS"
echo
v="feeds $("$BIN" --version 2>/dev/null | awk '{print $NF}')"
[ "$HAVE_SFEED" = 1 ] && v="$v; sfeed $(dpkg-query -W -f '${Version}' sfeed 2>/dev/null || echo '?')"
[ "$HAVE_XMLLINT" = 1 ] && v="$v; xmllint $(xmllint --version 2>&1 | head -n1 | grep -o '[0-9]*$')"
[ "$HAVE_FP" = 1 ] && v="$v; feedparser $("$PY" -c 'import feedparser; print(feedparser.__version__)' 2>/dev/null)"
echo "versions: $v"
