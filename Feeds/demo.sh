#!/usr/bin/env bash
# The offline demo behind `make run`: updates the bundled sample sources (Feeds/sources, which
# points at Feeds/samples/*) into a demo home, shows what was saved, and writes the HTML digest
# into HOME/site. The local samples name pictures next to them (Feeds/samples/img, drawn by
# make_images.py), which the image cache reads like downloads: a local source's images may be
# files in its folder, a web feed's never. Every demo card that names a picture shows it (4 of
# the 13); the saved searches' bundled answers name none (an engine's pictures are on the
# engine's host, which the demo cannot reach), so theirs are text cards. No network needed.
# Usage: Feeds/demo.sh BIN HOME
set -euo pipefail
bin=$1
home=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$home"
# The home's sources file is a link to Feeds/sources: relative paths in it resolve against
# the folder of the file it points to.
ln -sfn "$here/sources" "$home/sources"
echo "### feeds --home $home update --all --verbose"
status=0
"$bin" --home "$home" update --all --verbose || status=$?
echo
echo "### feeds --home $home sources --cards 5"
"$bin" --home "$home" sources --cards 5
echo
# --keep-unread: the demo shows the digest without marking it read, so every rerun shows it too.
echo "### feeds --home $home read --limit 4 --keep-unread"
"$bin" --home "$home" read --limit 4 --keep-unread
echo
# --since 2000-01-01: the samples are dated; the demo's digest shows all of them, whenever it runs.
echo "### feeds --home $home html --out $home/site --since 2000-01-01"
"$bin" --home "$home" html --out "$home/site" --since 2000-01-01 --title "feeds demo digest" || status=$?
exit "$status"
