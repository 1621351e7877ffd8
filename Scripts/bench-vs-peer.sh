#!/usr/bin/env bash
# Ours beside GRDB's peer-bench, interleaved: builds both in release, then runs
# `babydash-bench --peer` (pairs of runs, ours and the peer taking turns) and prints the
# markdown table of per-pair ratio medians, then the raw JSON lines.
#
#   Scripts/bench-vs-peer.sh                          5 pairs at 20k and 100k, 4 × 200 commits
#   Scripts/bench-vs-peer.sh --quick --pairs 2        a fast look while working
#   PEER_DIR=/path/to/peer-bench Scripts/bench-vs-peer.sh --sizes 20000
#
# The peer stays outside the package: its folder (default ../shared/peer-bench beside this
# repository) may be read-only, so it builds into PEER_SCRATCH (default ../.build-peer), and
# GRDB resolves from the machine's package mirror. Don't run it while other builds share the
# cores: the ratios hold up to drift, not to a neighbour's compiler.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
peer_dir="${PEER_DIR:-$repo/../shared/peer-bench}"
peer_scratch="${PEER_SCRATCH:-$repo/../.build-peer}"

if [ ! -f "$peer_dir/Package.swift" ]; then
  echo "error: no peer-bench package at '$peer_dir'; set PEER_DIR" >&2
  exit 64
fi
echo "building the peer in $peer_scratch" >&2
(cd "$peer_dir" && swift build -c release --scratch-path "$peer_scratch" >&2)
echo "building babydash-bench" >&2
(cd "$repo" && swift build -c release --product babydash-bench >&2)

bin="$(cd "$repo" && swift build -c release --show-bin-path)"
date -u "+run started %Y-%m-%d %H:%M UTC on $(nproc) cores" >&2
exec "$bin/babydash-bench" --peer "$peer_scratch/release/PeerBench" "$@"
