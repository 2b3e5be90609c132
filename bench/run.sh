#!/usr/bin/env bash
# The project's own benchmark (`make bench`): feeds against its peers, on generated data only.
#
#   bench/run.sh BIN [--quick] [--only SECTION,...] [--reps N] [--seed N] [--mb A,B]
#                    [--timeout SECONDS] [--keep] [--cards N] [--sources N] [--feeds N,...]
#                    [--hosts N] [--latency MS,...] [--peers sfeed_update,newsboat]
#
#   BIN           the feeds binary to measure (make bench passes .build/release/feeds)
#   --quick       smoke test: small inputs (2 MB / 10 MB), 1 repetition
#   --only LIST   sections to run, comma-separated (default: all of SECTIONS below)
#   --reps N      repetitions per measurement (default 3; the median is reported)
#   --seed N      generator seed (default 1; same seed => byte-identical inputs)
#   --mb A,B      sizes of the generated feeds in MB (default 20,100; --quick: 2,10)
#   --timeout S   bound on every single command (default 300 s)
#   --keep        keep the work directory (generated feeds, logs, raw TSV) and print its path
#   --cards N     run the opt-in section scale on a database of N cards (default with --only
#                 scale: 1,000,000; --quick: 20,000); --sources N: over N sources (default 5,000)
#   --feeds LIST  update: list sizes, comma-separated (default 200; --quick: 40), e.g. 200,1000,5000
#   --hosts N     update: loopback addresses serving the feeds (default 20)
#   --latency L   update: per-response latencies in ms (default 0,50)
#   --peers LIST  update: peers to run beside feeds (default sfeed_update,newsboat; "none")
#
# Sections are scripts bench/SECTION.sh, run in order with the settings in BENCH_* variables
# (see bench/lib.sh). Today: parse (throughput and memory of `feeds parse --json` vs sfeed,
# xmllint --stream and feedparser), json (`feeds parse --json` on realistic and hostile JSON
# Feeds and SearXNG answers: MB/s and peak RSS per input MB vs python3 json and feedparser), update (200 feeds, or the sizes of --feeds, on 20 loopback hosts vs sfeed_update, newsboat: cold and all-304 passes) and
# read (`feeds read --limit 50` and `feeds search` on 100,000 cards, and `feeds browse` on them: first screen and keypress to redraw), html (the digest site for 10,000 cards with whole posts, cold and rerun, and 100,000 cold). Add a section by writing bench/NAME.sh and listing it in
# SECTIONS. Opt-in (in SECTIONS, not in DEFAULT_SECTIONS): scale (--only scale or --cards N: a
# million cards over 5,000 sources: read, search, sources, update, html rerun, sizes, retention)
# and workers (--only workers: `feeds update --worker` x 1, 2, 4 against one PostgreSQL started
# on loopback, and SQLite's single process on the same corpus: 2,000 feeds on --hosts at 50 ms;
# feeds/s, CPU, peak RSS; from the server's log each feed fetched once, the most requests a host
# answered at once; every item saved once).
# A missing peer is skipped with a note; a failing section makes the exit status 1.
# Nothing here touches the network; everything runs in a temporary directory removed at exit.
set -u
{ # whole script in one block: bash parses it up front, so editing this file mid-run is safe

SECTIONS="parse json update read html scale workers"
# What runs without --only: scale (a million cards: minutes to build) only when --cards is given.
DEFAULT_SECTIONS="parse json update read html"

HERE=$(cd "$(dirname "$0")" && pwd)
usage() { sed -n '2,/^set -u/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; }

BIN= QUICK=0 ONLY= REPS= SEED=1 MB= STEP_TIMEOUT=300 KEEP=0 CARDS= SOURCES=
FEEDS= HOSTS=20 LATENCIES=0,50 PEERS=sfeed_update,newsboat
while [ $# -gt 0 ]; do
	case $1 in
	--quick) QUICK=1 ;;
	--only) ONLY=${2:?--only needs a list}; shift ;;
	--reps) REPS=${2:?--reps needs a number}; shift ;;
	--seed) SEED=${2:?--seed needs a number}; shift ;;
	--mb) MB=${2:?--mb needs sizes}; shift ;;
	--timeout) STEP_TIMEOUT=${2:?--timeout needs seconds}; shift ;;
	--keep) KEEP=1 ;;
	--cards) CARDS=${2:?--cards needs a number}; shift ;;
	--sources) SOURCES=${2:?--sources needs a number}; shift ;;
	--feeds) FEEDS=${2:?--feeds needs sizes}; shift ;;
	--hosts) HOSTS=${2:?--hosts needs a number}; shift ;;
	--latency) LATENCIES=${2:?--latency needs milliseconds}; shift ;;
	--peers) PEERS=${2:?--peers needs a list}; shift ;;
	-h|--help) usage; exit 0 ;;
	-*) echo "bench: unknown option $1" >&2; usage >&2; exit 2 ;;
	*) [ -z "$BIN" ] || { echo "bench: one binary only (got $BIN and $1)" >&2; exit 2; }; BIN=$1 ;;
	esac
	shift
done
[ -n "$BIN" ] || { usage >&2; exit 2; }
[ -x "$BIN" ] && [ -f "$BIN" ] || { echo "bench: $BIN is not an executable file (build it: make build)" >&2; exit 2; }
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
if [ "$QUICK" = 1 ]; then : "${REPS:=1}" "${MB:=2,10}"; else : "${REPS:=3}" "${MB:=20,100}"; fi
[ -n "$ONLY" ] || ONLY=$(echo $DEFAULT_SECTIONS ${CARDS:+scale} | tr ' ' ',')
for s in ${ONLY//,/ }; do
	[ -f "$HERE/$s.sh" ] || { echo "bench: no section '$s' (have: $SECTIONS)" >&2; exit 2; }
done
for t in timeout /usr/bin/python3; do
	command -v "$t" >/dev/null || { echo "bench: $t is required" >&2; exit 2; }
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/feeds-bench.XXXXXX")
cleanup() { if [ "$KEEP" = 1 ]; then echo "work dir kept: $WORK"; else rm -rf "$WORK"; fi; }
trap cleanup EXIT
trap 'exit 130' INT TERM

export BENCH_FEEDS=${FEEDS:-200} BENCH_FEEDS_GIVEN=$FEEDS BENCH_HOSTS=$HOSTS BENCH_LATENCIES=$LATENCIES BENCH_PEERS=$PEERS
export BENCH_BIN=$BIN BENCH_QUICK=$QUICK BENCH_REPS=$REPS BENCH_SEED=$SEED BENCH_MB=$MB \
	BENCH_TIMEOUT=$STEP_TIMEOUT BENCH_DIR=$HERE BENCH_WORK=$WORK BENCH_CARDS=$CARDS BENCH_SOURCES=${SOURCES:-5000}
export HOME=$WORK/home; mkdir -p "$HOME"   # keep every tool's dotfiles inside the work dir
export LC_ALL=C.UTF-8

SECONDS=0
echo "== feeds bench: $("$BIN" --version 2>/dev/null | head -n1 || echo "$BIN")"
echo "   sections: $ONLY; reps=$REPS; sizes=${MB//,/ \/ } MB; seed=$SEED; quick=$QUICK;" \
	"$(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))"
echo "   load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (wall times on a busy machine are noisy; cpu_s less so)"
status=0
for s in ${ONLY//,/ }; do
	echo
	mkdir -p "$WORK/$s"
	BENCH_WORK=$WORK/$s bash "$HERE/$s.sh" || { echo "bench: section $s failed (exit $?)"; status=1; }
done
echo
echo "bench total: ${SECONDS}s; load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
}
