#!/usr/bin/env bash
# The offline demo behind `make run`: reads the bundled sample feeds and shows their cards.
# Usage: Feeds/demo.sh BIN HOME
set -euo pipefail
bin=$1
home=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$home"
for f in "$here"/samples/*; do
	echo "### $(basename "$f")"
	"$bin" --home "$home" parse "$f"
done
