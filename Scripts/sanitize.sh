#!/usr/bin/env bash
# Runs the engine's concurrency suites under ThreadSanitizer and the engine's suites under
# AddressSanitizer, each in its own build folder (.build-tsan, .build-asan), and fails on any
# report — from the test process or from any process a test starts (babydash, plainstore-stress),
# since every report goes to a file under the run's log folder — or on any failing test.
#
#   Scripts/sanitize.sh             both runs
#   Scripts/sanitize.sh thread      ThreadSanitizer only
#   Scripts/sanitize.sh address     AddressSanitizer only
#
# The engine's locks are StoreMutex (a pthread_mutex) so that TSan sees every hand-off:
# Synchronization.Mutex hands a contended lock over inside the kernel on Linux, where TSan
# cannot see it, and would bring back hundreds of false reports.
set -euo pipefail
cd "$(dirname "$0")/.."

# Every suite where threads or processes meet: watchers, live queries and observations, the
# cross-process monitor, arrival watches, the file lock and its claim, concurrent and
# multi-process writers, the compaction's manifest a save leaves to a thread of its own, the
# widget's observer and the key-value stores.
THREAD_SUITES='StoreMutexTests|CacheCompactionLockTests|WatcherLifetimeTests|LiveQueryTests|StoreObservationTests|LiveQueryAcrossProcessesTests|MultiProcessTests|HistoryAcrossProcessesTests|ArrivalWatchTests|FileLockTests|LockClaimTests|ContextTests|ContainerTests|SimulatedICloudTests|BabyWidgetSnapshotsTests|FileKeyValueStoreTests|CrossProcessTests'
# The engine's own test target: every suite of PlainStoreTests.
ADDRESS_SUITES='PlainStoreTests\.'

logs=$(mktemp -d "${TMPDIR:-/tmp}/sanitize.XXXXXX")
failed=0

# run SANITIZER SCRATCH FILTER OPTIONS_VARIABLE OPTIONS
run() {
  local sanitizer=$1 scratch=$2 filter=$3 variable=$4 options=$5
  local folder="$logs/$sanitizer" started status=0
  mkdir -p "$folder"
  started=$(date +%s)
  echo "== $sanitizer: building ($scratch)"
  swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch"
  echo "== $sanitizer: testing ($filter)"
  env "$variable=log_path=$folder/report $options" \
    swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" --filter "$filter" >"$folder/test.log" 2>&1 || status=$?
  tail -n 3 "$folder/test.log"
  # `swift test --filter` exits 0 when nothing matches: a filter that ran no test fails.
  local ran
  ran=$(grep -o 'Test run with [0-9]* test' "$folder/test.log" | grep -o '[0-9][0-9]*' | tail -n 1 || true)
  if [ "${ran:-0}" = 0 ]; then
    echo "== $sanitizer: the filter '$filter' ran no test"
    failed=1
  fi
  local reports
  reports=$(cat "$folder"/report.* 2>/dev/null | grep -c '^WARNING: \|^==[0-9]*==ERROR: ' || true)
  echo "== $sanitizer: $reports report(s), tests exited $status, $(($(date +%s) - started)) s"
  if [ "$reports" != 0 ]; then
    # One line per place, most frequent first; the whole reports stay in the log folder.
    cat "$folder"/report.* | grep '^SUMMARY: ' | sed 's/ in \$.*//; s/ (.*//' | sort | uniq -c | sort -rn
    echo "reports: $folder/report.*"
    failed=1
  fi
  if [ "$status" != 0 ]; then
    grep '✘' "$folder/test.log" | head -n 20 || true
    echo "test log: $folder/test.log"
    failed=1
  fi
}

runs=("$@")
[ ${#runs[@]} = 0 ] && runs=(thread address)
for sanitizer in "${runs[@]}"; do
  case "$sanitizer" in
    # halt_on_error=0: every race of the run is reported, not only the first.
    thread) run thread .build-tsan "$THREAD_SUITES" TSAN_OPTIONS "halt_on_error=0" ;;
    # detect_leaks=0: the Swift runtime's caches and metadata live until exit and read as leaks.
    address) run address .build-asan "$ADDRESS_SUITES" ASAN_OPTIONS "detect_leaks=0" ;;
    *) echo "usage: Scripts/sanitize.sh [thread|address]..." >&2; exit 64 ;;
  esac
done
[ "$failed" = 0 ] && echo "sanitizers: clean" && rm -rf "$logs"
exit "$failed"
