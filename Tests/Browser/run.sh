#!/usr/bin/env bash
# `make browser-test`: renders the digest in headless Chromium (Debian's `chromium`).
#
#   Tests/Browser/run.sh BIN [OUT]
#
# 1. A site from the demo sources plus a feed of generated pictures served on 127.0.0.1:
#    screenshots of the index, sort-title.html, an archive day, a source page and a whole post,
#    1280 and 390 px wide, light and dark, into OUT (default .browser-test/); fails on any
#    console message (a CSP violation, a missing file, an error).
# 2. The sanitize cases of ../shared/conformance (feedparser's hostile HTML) go through
#    `feeds update` and `feeds html`; the page listing all of them is rendered: no console
#    message (no script was even attempted), no <script> in the DOM Chromium built, every card
#    present.
# 3. Controls: the same detector on a page with an inline script and an event handler under the
#    same CSP must see the blocked attempts, and without the CSP must see the script run. So a
#    pass means "nothing ran", not "the detector is blind".
set -euo pipefail
BIN=$(realpath "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$(realpath -m "${2:-$ROOT/.browser-test}")
CASES=$ROOT/../shared/conformance/feedparser/cases/wellformed/sanitize
CHROME=${CHROME:-chromium}
rm -rf "$OUT"; mkdir -p "$OUT"
fail=0

# chrome_run NAME URL ARGS...: runs headless Chromium, DOM to OUT/NAME.dom, log to OUT/NAME.log;
# prints the console lines (if any) to OUT/NAME.console.
chrome_run() {
	local name=$1 url=$2; shift 2
	timeout -k 5 90 "$CHROME" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
		--user-data-dir="$OUT/profile" --enable-logging=stderr --v=0 "$@" "$url" >"$OUT/$name.dom" 2>"$OUT/$name.log" || true
	grep 'CONSOLE' "$OUT/$name.log" >"$OUT/$name.console" || true
}
check_clean() {  # check_clean NAME: no console line
	if [ -s "$OUT/$1.console" ]; then echo "FAIL $1: console messages:"; sed 's/^/    /' "$OUT/$1.console" | head -5; fail=1
	else echo "ok   $1: no console messages"; fi
}

# --- 1. demo + pictures --------------------------------------------------------------------
HOME_DIR=$OUT/home; mkdir -p "$HOME_DIR" "$OUT/www"
python3 "$ROOT/Tests/Browser/sample_site.py" "$OUT/www" "http://127.0.0.1:0" >/dev/null   # to know the files
python3 -m http.server 0 --bind 127.0.0.1 --directory "$OUT/www" >"$OUT/http.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 50); do PORT=$(grep -o 'port [0-9]*' "$OUT/http.log" | grep -o '[0-9]*' || true); [ -n "$PORT" ] && break; sleep 0.1; done
[ -n "${PORT:-}" ] || { echo "http.server did not start"; exit 1; }
python3 "$ROOT/Tests/Browser/sample_site.py" "$OUT/www" "http://127.0.0.1:$PORT" >/dev/null
# The demo's sources (feeds and saved searches answered from bundled files, relative to the
# sources file: a link to Feeds/samples makes them resolve), plus the pictures.
ln -sfn "$ROOT/Feeds/samples" "$HOME_DIR/samples"
{ cat "$ROOT/Feeds/sources"; echo "$OUT/www/pics.rss name=\"Photo essays\" tags=photos"; } >"$HOME_DIR/sources"
"$BIN" --home "$HOME_DIR" update --all >/dev/null
# The pictures are on the loopback server and their feed is a local file: internal addresses
# off a source's origin need --allow-internal (the demo's own pictures are files next to it).
"$BIN" --home "$HOME_DIR" html --out "$OUT/site" --since 60d --title "feeds digest" --allow-internal >/dev/null
SITE=file://$OUT/site
# Five pages (the index, a sort page, an archive day, a source page and a whole post), each
# at 1280 and 390 px wide, light and dark. A whole post opens on a click; headless Chromium
# does not click, so the day's page is copied beside it with its posts open.
DAY=$(grep -l '<details class="post">' "$OUT/site/archive/"2*.html | sort | tail -1)
DAY=$(basename "$DAY" .html)
sed 's/<details class="post">/<details class="post" open>/g' "$OUT/site/archive/$DAY.html" >"$OUT/site/archive/$DAY-open.html"
declare -A PAGES=([index]=index.html [sort-title]=sort-title.html [archive-day]=archive/$DAY.html
	[source]=sources/1.html [post]=archive/$DAY-open.html)
shots=""
for page in index sort-title archive-day source post; do
	for width in 1280 390; do
		height=$([ $width = 390 ] && echo 844 || echo 900)
		chrome_run "$page-$width-light" "$SITE/${PAGES[$page]}" --window-size=$width,$height --screenshot="$OUT/$page-$width-light.png"
		chrome_run "$page-$width-dark" "$SITE/${PAGES[$page]}" --window-size=$width,$height --force-dark-mode \
			--blink-settings=preferredColorScheme=0 --screenshot="$OUT/$page-$width-dark.png"
		shots="$shots $page-$width-light $page-$width-dark"
	done
done
rm -f "$OUT/site/archive/$DAY-open.html"
chrome_run index-dom "$SITE/index.html" --dump-dom
for n in $shots index-dom; do check_clean $n; done
imgs=$(grep -o '<img [^>]*src="images/[^"]*"' "$OUT/index-dom.dom" | wc -l)
# 6 pictures of the pictures feed, 4 of the demo's own (Feeds/samples/img).
if [ "$imgs" -ge 10 ]; then echo "ok   index: $imgs cached images shown"; else echo "FAIL index: $imgs cached images (expected 10)"; fail=1; fi

# --- 2. sanitize cases ---------------------------------------------------------------------
if [ -d "$CASES" ]; then
	SAN=$OUT/sanitize; mkdir -p "$SAN"
	ls "$CASES"/*.xml | sed 's#^#file://#' >"$SAN/sources"
	total=$(wc -l <"$SAN/sources")
	"$BIN" --home "$SAN" update --all >/dev/null 2>&1 || true   # some cases are deliberately odd
	"$BIN" --home "$SAN" html --out "$SAN/site" --since 1970-01-01 --no-images >/dev/null
	chrome_run sanitize "file://$SAN/site/sort-source.html" --dump-dom --window-size=1280,1000
	check_clean sanitize
	cards=$(grep -o '<article class="card' "$OUT/sanitize.dom" | wc -l)
	scripts=$(grep -ci '<script' "$OUT/sanitize.dom" || true)
	# Feed-level cases (feed_*) have no entries: their HTML is a feed description, which only
	# a source page shows, as plain text.
	stored=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from cards").fetchone()[0])' "$SAN/feeds.db")
	if [ "$scripts" = 0 ] && [ "$cards" = "$stored" ] && [ "$cards" -gt 0 ]; then
		echo "ok   sanitize: all $cards cards of $total cases rendered in one page, no <script> in the DOM"
	else echo "FAIL sanitize: $cards of $stored cards rendered, $scripts <script> elements"; fail=1; fi
else
	echo "skip sanitize: $CASES not found (needs ../shared next to the repository)"
fi

# --- 3. controls ---------------------------------------------------------------------------
CSP=$(grep -o '<meta http-equiv="Content-Security-Policy"[^>]*>' "$OUT/site/index.html")
printf '<!DOCTYPE html><html><head>%s<title>t</title></head><body><p id="x">static</p><script>document.getElementById("x").textContent="EXECUTED"</script><img src="none.png" onerror="document.title=1"></body></html>\n' "$CSP" >"$OUT/site/control-csp.html"
printf '<!DOCTYPE html><html><head><title>t</title></head><body><p id="x">static</p><script>document.getElementById("x").textContent="EXECUTED"</script></body></html>\n' >"$OUT/site/control-nocsp.html"
chrome_run control-csp "$SITE/control-csp.html" --dump-dom
chrome_run control-nocsp "$SITE/control-nocsp.html" --dump-dom
rm -f "$OUT/site/control-csp.html" "$OUT/site/control-nocsp.html"
if grep -q 'violates the following Content Security Policy' "$OUT/control-csp.console" && ! grep -q '>EXECUTED<' "$OUT/control-csp.dom"; then
	echo "ok   control: an inline script under the pages' CSP is blocked and reported on the console"
else echo "FAIL control: the CSP control page did not report a blocked script"; fail=1; fi
if grep -q '>EXECUTED<' "$OUT/control-nocsp.dom"; then echo "ok   control: without the CSP the same script runs (the DOM check sees it)"
else echo "FAIL control: the no-CSP control did not run its script (is JavaScript off?)"; fail=1; fi

echo "screenshots: $(for n in $shots; do printf '%s ' "$OUT/$n.png"; done)"
exit $fail
