#!/usr/bin/env bash
# The main job: installs what it needs, builds hoglake and runs a short demo
# of what exists today (see README.md). Usage (as root): bash scripts/run.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

install_apt_packages
build_tree "$HOGLAKE_ROOT/build" -- hoglake

hoglake="$HOGLAKE_ROOT/build/src/cli/hoglake"
demo_dir=$(mktemp -d)
trap 'rm -rf "$demo_dir"' EXIT

log "hoglake --help"
"$hoglake" --help

log "hoglake arrow demo: write an Arrow IPC stream holding every column type"
"$hoglake" arrow demo "$demo_dir/demo.arrows"

log "hoglake arrow schema: its schema, with catalog field ids"
"$hoglake" arrow schema "$demo_dir/demo.arrows"

log "hoglake arrow cat: its rows as JSON lines"
"$hoglake" arrow cat "$demo_dir/demo.arrows"
