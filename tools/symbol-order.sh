#!/usr/bin/env bash
# tools/symbol-order.sh: writes tools/symbol-order.txt, the functions `make build` places first
# in the binary's code (lld's --symbol-ordering-file), from what a realistic run executes.
#
# Why (issue 21): the kernel maps a program's code in 64 KB windows around each page it first
# runs ("fault-around"), so a run that executes ~1 MB of functions scattered over 17 MB of code
# held ~9.7 MB of the binary resident; with the functions it runs next to each other it holds
# what it runs. Only the order changes: same code, same results.
#
# The workload, under callgrind (valgrind): a cold `feeds update` of 1,000 generated feeds and
# the test fixtures' feeds of every format on a loopback server (bench/serve_feeds.py, 20
# hosts), the all-304 pass after it, then `read`, `search`, `sources` and `html` on that home;
# the functions it ran, most run first (update's before the rest). Takes ~10 minutes; run it
# when the code an update runs has changed much (a function missing from the list costs nothing
# but its page's neighbours: `--check BIN` says how many of the listed names the binary still
# has).
#
# Usage: tools/symbol-order.sh            (builds, runs the workload, writes the list)
#        tools/symbol-order.sh --check BIN
set -euo pipefail
cd "$(dirname "$0")/.."
LIST=tools/symbol-order.txt

if [ "${1:-}" = --check ]; then
	BIN=${2:?usage: tools/symbol-order.sh --check BIN}
	total=$(grep -c . "$LIST")
	found=$(nm --defined-only "$BIN" | awk '{print $3}' | sort -u | comm -12 - <(sort -u "$LIST") | wc -l)
	echo "symbol order: $found of $total listed functions are in $BIN"
	exit 0
fi

command -v valgrind >/dev/null || { echo "valgrind is needed: apt-get install valgrind" >&2; exit 1; }
make --no-print-directory build >/dev/null
WORK=$(mktemp -d)
trap 'kill $SERVER 2>/dev/null; rm -rf "$WORK"' EXIT
# valgrind cannot read the DWARF 5 of the toolchain's objects: a copy without debug info.
cp .build/release/feeds "$WORK/feeds"
strip --strip-debug "$WORK/feeds"
mkdir -p "$WORK/www" "$WORK/home"
for i in $(seq 0 9); do python3 bench/gen_feed.py "$WORK/base$i.rss" --mb 0.06 --seed $((100 + i)) >/dev/null; done
for i in $(seq 0 999); do ln "$WORK/base$((i % 10)).rss" "$WORK/www/f$i.rss"; done
# The other formats and the broken ones, as a big subscription list has them (Atom 0.3 and
# 1.0, RSS 0.91 and 1.0, JSON Feed, legacy encodings, ill-formed and hostile documents, pages
# that are not feeds): the test fixtures, five copies each, so the code that parses them is
# placed with the rest (the shared yardstick's corpus is a third Atom and a sixth RDF).
FIXTURES=$(find Tests/Fixtures/feeds -type f \( -name '*.xml' -o -name '*.json' -o -name '*.html' \) | sort)
n=0
for f in $FIXTURES; do
	for copy in 1 2 3 4 5; do cp "$f" "$WORK/www/x$n.${f##*.}"; n=$((n + 1)); done
done
python3 bench/serve_feeds.py "$WORK/www" --port-file "$WORK/port" --hosts 20 --max-seconds 3600 >/dev/null 2>&1 &
SERVER=$!
for _ in $(seq 100); do [ -s "$WORK/port" ] && break; sleep 0.1; done
PORT=$(cat "$WORK/port")
{
	for i in $(seq 0 999); do echo "http://127.0.0.$((1 + i % 20)):$PORT/f$i.rss"; done
	for f in "$WORK"/www/x*; do echo "http://127.0.0.1:$PORT/${f##*/}"; done
} >"$WORK/home/sources"

run() {  # run NAME ARGS...: one command of the workload under callgrind
	local name=$1; shift
	valgrind --tool=callgrind --demangle=no --callgrind-out-file="$WORK/cg.$name" \
		"$WORK/feeds" --home "$WORK/home" "$@" >/dev/null 2>>"$WORK/valgrind.log" || true
}
run 1-cold update --all
run 2-304 update --all
run 3-read read --limit 50 --keep-unread
run 4-search search update --limit 50
run 5-sources sources
run 6-html html --out "$WORK/site" --no-images

# Each output's functions of the feeds binary by their cost there, outputs in the order above.
python3 - "$WORK" >"$LIST" <<'PY'
import collections, glob, os, re, sys
seen, order = set(), []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "cg.*"))):
    objects, functions, cost = {}, {}, collections.Counter()
    current_object = current_function = None
    for line in open(path, errors="replace"):
        m = re.match(r"^(c?)(ob|fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if m:
            table = objects if m.group(2) == "ob" else functions
            if m.group(4):
                table[m.group(3)] = m.group(4)
            if not m.group(1):
                if m.group(2) == "ob":
                    current_object = objects.get(m.group(3))
                else:
                    current_function = functions.get(m.group(3))
            continue
        if current_function and current_object and current_object.endswith("/feeds") and line[:1].isdigit():
            fields = line.split()
            cost[current_function] += int(fields[1]) if len(fields) > 1 else 0
    for name, _ in cost.most_common():
        if name not in seen and not name.startswith("("):
            seen.add(name)
            order.append(name)
print("\n".join(order))
PY
echo "wrote $LIST: $(wc -l <"$LIST") functions"
# SwiftPM does not know the list is an input of the link: the next `make build` relinks.
rm -f .build/release/feeds
