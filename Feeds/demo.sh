#!/usr/bin/env bash
# The offline demo behind `make run`: updates the bundled sample sources (Feeds/sources, which
# points at Feeds/samples/*) into a demo home, then shows what was saved.
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
exit "$status"
