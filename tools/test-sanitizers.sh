#!/usr/bin/env bash
# make test-sanitizers: the whole XCTest suite under AddressSanitizer (leaks included), then the
# concurrent parts (fetcher, update runner, storage under concurrent access, image downloads,
# the HTML writer's parallel excerpts and atomic writes) under ThreadSanitizer. Each sanitizer
# builds in its own folder (.build-asan, .build-tsan) so the normal build is untouched; the CLI
# tests run the instrumented `feeds` next to the instrumented test bundle.
#
#   tools/test-sanitizers.sh [address|thread]...     (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
KINDS=("${@:-address thread}")
# shellcheck disable=SC2206
KINDS=(${KINDS[*]})

# The test classes that run code on several threads at once (TSan only sees races it executes).
CONCURRENT=(
    FetchingTests.ConcurrencyTests FetchingTests.TimeoutTests FetchingTests.ConditionalGetTests FetchingTests.HostConcurrencyTests
    AggregatorTests.ParallelParseTests StorageTests.PreparedCardsTests
    AggregatorTests.UpdateIntegrationTests AggregatorTests.SearchUpdateTests AggregatorTests.RunLockTests
    StorageTests.ConcurrencyTests
    ImageCacheTests.ImageDownloadTests
    HTMLDigestTests.SiteWriteTests HTMLDigestTests.ParallelExcerptTests
    FeedParsingTests.StreamingTests
)

status=0
for kind in "${KINDS[@]}"; do
    case $kind in
    address) dir=.build-asan ;;
    thread) dir=.build-tsan ;;
    *) echo "unknown sanitizer $kind (address|thread)" >&2; exit 2 ;;
    esac
    echo "== $kind: building in $dir"
    swift build --build-tests --sanitize="$kind" --build-path "$dir" 2>&1 | grep -E "error:|Build complete" || true
    bundle="$dir/debug/feedsPackageTests.xctest"
    [ -x "$bundle" ] || { echo "build failed" >&2; exit 1; }
    filter=()
    if [ "$kind" = thread ]; then
        # Only classes that exist in this checkout (a class name typo would run nothing).
        known=$("$bundle" --list-tests 2>/dev/null | sed -n 's/^\([A-Za-z]*\.[A-Za-z]*\)\/.*/\1/p' | sort -u)
        picked=()
        for c in "${CONCURRENT[@]}"; do grep -qx "$c" <<<"$known" && picked+=("$c"); done
        filter=("$(IFS=,; echo "${picked[*]}")")
    fi
    log="$dir/sanitizer-tests.log"
    # Reports go to files, one per process (the test bundle and every `feeds` it runs), so that
    # the CLI tests see the same stderr as without a sanitizer.
    reports="$dir/sanitizer-reports"
    rm -rf "$reports"; mkdir -p "$reports"
    # halt_on_error: the first memory error or race stops that process. Leaks are reported at
    # exit without changing the exit status (LSan exitcode=0: the CLI tests check `feeds`' exit
    # status); tools/leaks_in_our_code.py judges them, since the Swift runtime, Foundation and
    # XCTest leak a little by themselves on Linux.
    ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:log_path=$PWD/$reports/asan" LSAN_OPTIONS=exitcode=0 \
        TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:log_path=$PWD/$reports/tsan" \
        SWIFT_BACKTRACE=enable=no timeout 1800 "$bundle" "${filter[@]}" >"$log" 2>&1 && rc=0 || rc=$?
    summary=$(grep -E "Executed [0-9]+ tests" "$log" | tail -1 | sed 's/^[[:space:]]*//')
    cat "$reports"/* > "$dir/sanitizer-reports.txt" 2>/dev/null || : > "$dir/sanitizer-reports.txt"
    errors=$(grep -cE "ERROR: AddressSanitizer|WARNING: ThreadSanitizer" "$dir/sanitizer-reports.txt" || true)
    leaks=$(python3 tools/leaks_in_our_code.py "$dir/sanitizer-reports.txt" | tail -1)
    echo "$kind: ${summary:-no summary} · processes reporting: $(ls "$reports" | wc -l) · memory errors or races: $errors · $leaks · exit $rc"
    if [ "$rc" -ne 0 ] || [ "$errors" -ne 0 ] || ! python3 tools/leaks_in_our_code.py "$dir/sanitizer-reports.txt" >/dev/null; then
        status=1
        grep -E "error: " "$log" | head -10
        grep -E -A14 "ERROR: AddressSanitizer|WARNING: ThreadSanitizer" "$dir/sanitizer-reports.txt" | head -60
        python3 tools/leaks_in_our_code.py "$dir/sanitizer-reports.txt" | head -40
    fi
done
exit $status
