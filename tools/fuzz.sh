#!/usr/bin/env bash
# make fuzz: builds feeds-fuzz with libFuzzer + AddressSanitizer and runs each target for
# FUZZ_SECONDS (default 60) with the limits of issue 7: 1 s per input, 256 MB of memory, leaks
# reported. Seeds come from the test fixtures, the bundled samples and, when present,
# ../shared/conformance. Corpora grow in .fuzz/corpus/TARGET (kept between runs); failing inputs
# land in .fuzz/artifacts/TARGET: fix the bug, then copy the input to Tests/Fixtures/fuzz/TARGET
# so `make test` replays it forever.
#
#   tools/fuzz.sh [TARGET...]          targets: xml json search jsonMemory html date sources url text schedule (default all)
#   FUZZ_SECONDS=600 tools/fuzz.sh xml
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${FUZZ_SECONDS:-60}
SHARED=${SHARED:-../shared}
ALL=(xml json search jsonMemory html date sources url text schedule)
TARGETS=("${@:-${ALL[@]}}")
WORK=.fuzz
BUILD=.build-fuzz
# Coverage as libFuzzer wants it (SwiftPM's --sanitize=fuzzer links libFuzzer but does not
# instrument the Swift code by itself). A change of flags needs a clean build: SwiftPM does not
# rebuild objects when only -Xswiftc flags change, so the flags are part of the build folder name.
FLAGS="-sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp"
BUILD="$BUILD-$(printf %s "$FLAGS" | cksum | cut -d' ' -f1)"
echo "building feeds-fuzz (libFuzzer + ASan, release) in $BUILD"
swift build -c release --build-path "$BUILD" --sanitize=fuzzer --sanitize=address \
    -Xswiftc -DFUZZING -Xswiftc "$FLAGS" --product feeds-fuzz 2>&1 \
    | grep -v "Cannot export local symbol" | grep -E "error|warning: .*swift|Compiling|Build" | tail -3
BIN="$BUILD/release/feeds-fuzz"

seed() {  # seed TARGET: fills $WORK/seeds/TARGET
    local t=$1 dir=$WORK/seeds/$1
    rm -rf "$dir"; mkdir -p "$dir"
    case $t in
    xml)
        find Tests/Fixtures/feeds Feeds/samples -type f ! -name '*.json' -exec cp {} "$dir/" \; 2>/dev/null
        [ -d "$SHARED/conformance/feedparser/cases" ] && \
            find "$SHARED/conformance/feedparser/cases" -name '*.xml' | while read -r f; do
                cp "$f" "$dir/$(echo "$f" | cksum | cut -d' ' -f1).xml"; done ;;
    json)
        find Tests/Fixtures/feeds Feeds/samples -type f -name '*.json' -exec cp {} "$dir/" \; ;;
    jsonMemory)
        # Every JSON there is (feeds and search answers), and a few hostile shapes in small.
        find Tests/Fixtures Feeds/samples -type f -name '*.json' -exec cp {} "$dir/" \;
        printf '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]' > "$dir/deep"
        printf '{"results":[{},{"a":[]},[],0,"",null,{"a":{"a":{"a":{}}}}],"query":"q"}' > "$dir/tiny"
        printf '["\\ud83d\\ude00\\ud83d","\\u00e9\\n\\t\\"\\/",1e300,-0,12345678901234567890]' > "$dir/escapes" ;;
    search)
        # The first byte picks the engine (see FuzzTarget.search): every response with every pick.
        for f in Tests/Fixtures/search/* Feeds/samples/search-*; do
            [ -f "$f" ] || continue
            for pick in 0 1 2 3 4 5 255; do
                { printf "\\$(printf %03o "$pick")"; cat "$f"; } > "$dir/$pick-$(basename "$f")"
            done
        done ;;
    html)
        find Tests/Fixtures/markup Tests/Fixtures/search -type f -name '*.htm*' -exec cp {} "$dir/" \;
        [ -d "$SHARED/conformance/feedparser/cases" ] && \
            find "$SHARED/conformance/feedparser/cases" -path '*sanitize*' -name '*.xml' | while read -r f; do
                cp "$f" "$dir/$(echo "$f" | cksum | cut -d' ' -f1).html"; done ;;
    date)
        local i=0
        while IFS= read -r line; do i=$((i + 1)); printf %s "$line" > "$dir/$i"; done <<'DATES'
Mon, 01 Jan 2024 12:00:00 GMT
Fri,24 Nov 2023 18:28:36 -0000
2024-06-01T12:00:00+02:00
2024-06-01 12:00:00+0200
2003-12-31T10:14:55.1234Z
Sun Jan  4 16:29:06 PST 2004
2004/02/28 18:14:55 PST
Κυρ, 11 Ιούλ 2004 12:00:00 EST
2004-05-25 오후 11:23:17
július-13T9:15-05:00
Thu, 01 Jan 2004 19:48:21 Z
1999-12-31
20040105T140000Z
DATES
        ;;
    sources)
        cp Feeds/sources "$dir/sources"
        find Tests/Fixtures -name '*.opml' -exec cp {} "$dir/" \; ;;
    url)
        printf 'https://a.example/b/c/d;p?q\n../../g' > "$dir/1"
        printf 'http://a.example/\n//b.example/x?y#z' > "$dir/2"
        printf 'https://a.example/%%7Efoo/\n./x%%20y/../z' > "$dir/3"
        printf 'HTTP://User@Example.COM:80/a\nmailto:x@y' > "$dir/4"
        printf '\n/relative' > "$dir/5" ;;
    text)
        # Fields separated by 0xFF (see TextWriters): title, description, link, image, author,
        # source name, Location; and the feed fixtures whole (parsed, then shown).
        printf 'T\033]0;pwned\007\033[2J\377<p>a\302\233b\342\200\256c</p>\377https://a.example/\377\377Au\tthor\377Src\033]52;c;eA==\007\377http://x/\r\nfeeds: fake' > "$dir/1"
        find Tests/Fixtures/hostile -type f -exec cp {} "$dir/" \; 2>/dev/null ;;
    schedule)
        # Header lines, a blank line, a feed: every feed fixture behind hostile headers.
        local n=0
        for f in Tests/Fixtures/feeds/*; do
            [ -f "$f" ] || continue
            n=$((n + 1))
            { printf 'Cache-Control: max-age=%s\nExpires: %s\nRetry-After: %s\n\n' \
                "$((n * 7919))" "Sun, 06 Nov 1994 08:49:37 GMT" "$n"; head -c 16384 "$f"; } > "$dir/$n"
        done ;;
    esac
    # Inputs already saved as regressions are seeds too.
    [ -d "Tests/Fixtures/fuzz/$t" ] && cp Tests/Fixtures/fuzz/"$t"/* "$dir/" 2>/dev/null || true
}

printf '%-8s %10s %8s %8s %8s %9s %s\n' target execs exec/s cov features corpus failures
status=0
for t in "${TARGETS[@]}"; do
    seed "$t"
    mkdir -p "$WORK/corpus/$t" "$WORK/artifacts/$t"
    dict=(); [ -f "tools/fuzz/$t.dict" ] && dict=(-dict="tools/fuzz/$t.dict")
    log="$WORK/$t.log"
    # quarantine_size_mb: ASan's default quarantine (256 MB) alone would hit the memory limit.
    # SWIFT_BACKTRACE: the Swift runtime's own backtracer would slow every crash report down.
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=quarantine_size_mb=16:detect_leaks=1:malloc_context_size=20 FEEDS_FUZZ_TARGET=$t \
        "$BIN" "$WORK/corpus/$t" "$WORK/seeds/$t" "${dict[@]}" -max_total_time="$SECONDS_PER_TARGET" \
        -timeout=1 -rss_limit_mb=256 -malloc_limit_mb=256 -max_len=65536 -print_final_stats=1 \
        -artifact_prefix="$WORK/artifacts/$t/" >"$log" 2>&1 || true
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    last=$(grep -E '^#[0-9]+' "$log" | grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9]*' | tail -1 || true)
    # A timeout on a loaded machine may be the machine: each timeout input is run once more on
    # its own with the same limit, and only one that times out again counts.
    for f in "$WORK/artifacts/$t"/timeout-*; do
        [ -f "$f" ] || continue
        if SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 FEEDS_FUZZ_TARGET=$t \
            "$BIN" -timeout=1 -rss_limit_mb=256 "$f" >/dev/null 2>&1; then
            mkdir -p "$WORK/unconfirmed-timeouts/$t"; mv "$f" "$WORK/unconfirmed-timeouts/$t/"
            echo "    $(basename "$f"): no timeout when run again alone (machine load); not counted"
        fi
    done
    failures=$(find "$WORK/artifacts/$t" -type f | wc -l)
    printf '%-8s %10s %8s %8s %8s %9s %s\n' "$t" "${runs:-0}" "${speed:-0}" \
        "$(echo "$last" | awk '{print $2}')" "$(echo "$last" | awk '{print $4}')" \
        "$(echo "$last" | awk '{print $6}')" "$failures"
    if [ "$failures" -gt 0 ]; then
        status=1
        grep -E "invariant broken|ERROR: |SUMMARY" "$log" | head -3 | sed 's/^/    /'
        find "$WORK/artifacts/$t" -type f | head -3 | sed 's/^/    input: /'
    fi
done
exit $status
