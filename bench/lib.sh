# Helpers shared by the bench sections (sourced, not run). bench/run.sh exports:
#   BENCH_BIN      absolute path of the feeds binary
#   BENCH_QUICK    1 for a smoke run
#   BENCH_REPS     repetitions per measurement
#   BENCH_SEED     generator seed
#   BENCH_MB       comma-separated sizes (MB) of the generated feeds
#   BENCH_TIMEOUT  bound (s) on every single command
#   BENCH_DIR      this directory
#   BENCH_WORK     the section's own scratch directory (removed by run.sh)

PY=/usr/bin/python3                       # system python: has python3-feedparser
BIN=$BENCH_BIN
STEP_TIMEOUT=$BENCH_TIMEOUT
LOG=$BENCH_WORK/log
mkdir -p "$LOG"

# bounded CMD...: run CMD under timeout (SIGKILL 5 s after SIGTERM).
bounded() { timeout -k 5 "$STEP_TIMEOUT" "$@"; }

# have CMD...: true when all are installed, else print which peer is skipped.
have() {
	local c
	for c; do command -v "$c" >/dev/null || { echo "  (skipped: $c not installed)"; return 1; }; done
}
have_py_module() {  # have_py_module MODULE [DEBIAN-PACKAGE]
	"$PY" -c "import $1" 2>/dev/null || { echo "  (skipped: python module $1 not installed${2:+; Debian package $2})"; return 1; }
}

# timed OUT CMD...: run CMD, writing `/usr/bin/time -v`-style lines to OUT. Without
# /usr/bin/time, a resource-module stand-in prints the same lines (its RSS has a floor of ~8 MB:
# a spawned child inherits the wrapper's high-water mark).
if [ -x /usr/bin/time ] && [ "${BENCH_PY_TIME:-0}" != 1 ]; then   # BENCH_PY_TIME=1 forces the stand-in
	timed() { local out=$1; shift; /usr/bin/time -v -o "$out" "$@"; }
else
	timed() {
		"$PY" -c 'import os, sys
pid = os.posix_spawnp(sys.argv[2], sys.argv[2:], os.environ); _, st, ru = os.wait4(pid, 0)
open(sys.argv[1], "w").write("User time (seconds): %.2f\nSystem time (seconds): %.2f\n"
    "Maximum resident set size (kbytes): %d\n" % (ru.ru_utime, ru.ru_stime, ru.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(st))' "$@"
	}
fi

# measure RES TOOL FILE REP STDIN STDOUT CMD...: time one bounded run of CMD (stdin from STDIN,
# stdout to STDOUT, stderr to a log) and append a row to the TSV file RES:
#   tool file rep wall_s cpu_s rss_kb rc stderr_lines
# wall_s is the process wall time (incl. startup) from the clock around it; cpu_s is user+sys
# and rss_kb the peak resident set of the largest process, both from time -v.
measure() {
	local res=$1 tool=$2 file=$3 rep=$4 in=$5 out=$6; shift 6
	local tf=$BENCH_WORK/time.out err=$LOG/${tool// /_}.$(basename "$file").$rep.err
	local t0 t1 rc
	t0=$(date +%s%N)
	timed "$tf" timeout -k 5 "$STEP_TIMEOUT" "$@" <"$in" >"$out" 2>"$err"
	rc=$?
	t1=$(date +%s%N)
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$tool" "$(basename "$file")" "$rep" \
		"$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", (b-a)/1e9}')" \
		"$(awk -F': ' '/User time/{u=$2} /System time/{s=$2} END{printf "%.2f", u+s}' "$tf")" \
		"$(awk -F': ' '/Maximum resident/{print $2}' "$tf")" \
		"$rc" "$(grep -vc '^Command exited with non-zero status' "$err")" >>"$res"
	printf '  %-17s %-10s rep %s %7.2fs  %6.1f MB RSS%s\n' "$tool" "$(basename "$file")" "$rep" \
		"$(tail -n1 "$res" | cut -f4)" "$(tail -n1 "$res" | awk -F'\t' '{print $6/1024}')" \
		"$([ "$rc" = 0 ] || echo "  ! exit $rc")"
	if [ "$rc" != 0 ]; then
		[ "$rc" = 124 ] || [ "$rc" = 137 ] && echo "    (timed out after ${STEP_TIMEOUT}s)"
		tail -n 3 "$err" | sed 's/^/    /'
	fi
	return 0
}
