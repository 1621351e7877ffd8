#!/usr/bin/env bash
# Runs the built tests matching a filter as an unprivileged user (nobody), for the cases root
# cannot try: mode 000 does not stop root. `.ci/run` calls it, as root, after `swift test`.
#   Scripts/test-unprivileged.sh <filter regex>
# The test binary and the executables the tests start are copied to a folder that user can
# read (a clone under /root is not), and the tests' temporary files go to a folder it owns.
set -euo pipefail
cd "$(dirname "$0")/.."
filter="${1:?usage: Scripts/test-unprivileged.sh <filter regex>}"
user="${UNPRIVILEGED_USER:-nobody}"
group="$(id -gn "$user")"
# `swift test --filter` exits 0 when nothing matches: a filter that ran no test fails.
log="$(mktemp /tmp/babydash-unprivileged-log.XXXXXX)"
check_ran() {
  local ran
  ran=$(grep -o 'Test run with [0-9]* test' "$log" | grep -o '[0-9][0-9]*' | tail -n 1 || true)
  rm -f "$log"
  if [ "${ran:-0}" = 0 ]; then
    echo "test-unprivileged: the filter '$filter' ran no test" >&2
    exit 1
  fi
}
if [ "$(id -u)" != 0 ]; then
  echo "test-unprivileged: not root, so running the tests as $(id -un) in place" >&2
  swift test --skip-build --filter "$filter" 2>&1 | tee "$log"
  check_ran
  exit 0
fi
products="$(swift build --show-bin-path)"
scratch="$(mktemp -d /tmp/babydash-unprivileged.XXXXXX)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/bin" "$scratch/tmp"
cp "$products/BabyDashboardPackageTests.xctest" "$products/babydash" "$products/plainstore-stress" "$scratch/bin/"
chmod 0755 "$scratch" "$scratch/bin" "$scratch"/bin/*
chown "$user:$group" "$scratch/tmp"
chmod 0700 "$scratch/tmp"
cd "$scratch/bin"
setpriv --reuid="$user" --regid="$group" --clear-groups \
  env -i PATH="$PATH" HOME="$scratch/tmp" TMPDIR="$scratch/tmp" CI="${CI:-}" LANG=C.UTF-8 \
  ./BabyDashboardPackageTests.xctest --testing-library swift-testing --filter "$filter" 2>&1 | tee "$log"
check_ran
