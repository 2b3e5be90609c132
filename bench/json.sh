#!/usr/bin/env bash
# bench section "json": throughput and peak memory per input MB of `feeds parse --json FILE` on
# generated JSON (bench/gen_json.py, first size of BENCH_MB): a realistic JSON Feed and SearXNG
# answer, and two hostile shapes (a JSON Feed of nested arrays, a SearXNG answer of millions of
# tiny objects, which feeds refuses at its value budget: exit 2 with a one-line error), against
# Python's json.load (the whole document as objects) and feedparser (JSON Feed only; first rep).
# Run through bench/run.sh (which sets BENCH_*), e.g. bench/run.sh BIN --only json.
set -u
. "${BENCH_DIR:?run me through bench/run.sh}/lib.sh"

RES=$BENCH_WORK/runs.tsv FILES=$BENCH_WORK/files.tsv
: >"$RES"; : >"$FILES"
IFS=, read -ra SIZES <<<"$BENCH_MB"
mb=${SIZES[0]}

echo "== json: generating $mb MB documents (seed $BENCH_SEED)"
files=()
for shape in feed searxng feed-nested searxng-tiny; do
	f=$BENCH_WORK/$shape.json
	out=$(bounded "$PY" "$BENCH_DIR/gen_json.py" "$f" --shape "$shape" --mb "$mb" --seed "$BENCH_SEED") || {
		echo "  ! generator failed for $shape: $out"; exit 1; }
	printf '%s\t%s\t%s\n' "$(basename "$f")" "${out##*bytes=}" "$(echo "$out" | sed 's/^values=\([0-9]*\).*/\1/')" >>"$FILES"
	echo "  $(basename "$f"): $out"
	files+=("$f")
done

HAVE_FP=0
have_py_module feedparser python3-feedparser && HAVE_FP=1

echo "== json: timing ($BENCH_REPS reps)"
for f in "${files[@]}"; do
	for rep in $(seq "$BENCH_REPS"); do
		measure "$RES" feeds "$f" "$rep" /dev/null /dev/null "$BIN" parse --json "$f"
		measure "$RES" "python3 json" "$f" "$rep" /dev/null /dev/null "$PY" -c 'import json, sys
json.load(open(sys.argv[1], "rb"))' "$f"
	done
	case $(basename "$f") in feed*.json) if [ "$HAVE_FP" = 1 ]; then
		measure "$RES" feedparser "$f" 1 /dev/null /dev/null "$PY" -c 'import feedparser, sys
feedparser.parse(open(sys.argv[1], "rb").read())' "$f"
	fi ;; esac
done

echo
bounded "$PY" "$BENCH_DIR/report.py" json "$FILES" "$RES"
