#!/usr/bin/env bash
# Type-checks the Apple binding files (Sources/PlainStore/Internal/Apple/, which only Apple
# platforms compile) on Linux, against Scripts/apple-stub/AppleFoundation.swift and
# AppleCloudKit.swift: stubs of exactly the Apple declarations they use, copied from Apple's
# documentation. A misspelt or mistyped call into FileManager, NSMetadataQuery,
# NSFileCoordinator, ProcessInfo or CKSyncEngine fails here.
#
#   Scripts/check-apple-stub.sh              run the check
#   Scripts/check-apple-stub.sh --self-test  prove it fails on a misspelt call, a misused
#                                            signature, a stub declaration no file uses, and one
#                                            that Linux's Foundation already has
#
# The check: (1) the Apple files, their Apple-only `#if` made true, type-check with the seams
# they implement and the stub, in Swift 6 mode; (2) every stub declaration (its `// uses:` text)
# appears in the Apple files; (3) every stub declaration is missing from Linux's Foundation: its
# `probe:` expression compiles with the stub and fails without it.
set -euo pipefail
cd "$(dirname "$0")/.."

STUB=Scripts/apple-stub/AppleFoundation.swift
# The CloudKit binding's declarations, checked alike, in a file of their own.
CLOUDKIT_STUB=Scripts/apple-stub/AppleCloudKit.swift
APPLE=Sources/PlainStore/Internal/Apple
# The engine's side of each seam the Apple files implement: Foundation only.
SEAMS=(
  Sources/PlainStore/Internal/Sync/UbiquityService.swift
  Sources/PlainStore/SyncStatus.swift
  Sources/PlainStore/BackgroundAssertion.swift
  Sources/PlainStore/Internal/Files/DataProtection.swift
  Sources/PlainStore/Internal/Files/StoreMutex.swift
  Sources/PlainStore/Internal/Sync/CloudKit/CloudDatabase.swift
  Sources/PlainStore/Internal/Sync/CloudKit/CloudError.swift
)
APPLE_IF='^([[:space:]]*)#if[[:space:]]+(canImport\(Darwin\)|os\((iOS|macOS|watchOS|tvOS|visionOS)\)([[:space:]]*\|\|[[:space:]]*os\((iOS|macOS|watchOS|tvOS|visionOS)\))*)[[:space:]]*$'

# check APPLE_FOLDER STUB_FILE [STAGES]: prints what fails; exits 1 if anything does. STAGES
# (default "types uses probes") picks the parts to run.
check() {
  local apple=$1 stub=$2 stages=${3:-types uses probes} work status=0
  local stubs=("$stub" "$CLOUDKIT_STUB")
  work=$(mktemp -d)
  mkdir "$work/src" "$work/probe"
  for file in "$apple"/*.swift "${SEAMS[@]}"; do
    sed -E "s/$APPLE_IF/\\1#if true/" "$file" >"$work/src/$(basename "$file")"
  done
  if [[ $stages == *types* ]] && ! swiftc -typecheck -swift-version 6 -module-name PlainStore -package-name BabyDashboard "${stubs[@]}" "$work"/src/*.swift >"$work/log" 2>&1; then
    grep -E 'error:' "$work/log" | sed -E "s#$work/src/#$apple/#" | sort -u
    echo "Apple stub: the Apple files do not type-check against ${stubs[*]}"
    status=1
  fi
  local line uses probe index=0
  printf 'import Foundation\n' >"$work/probe/all.swift"
  while IFS= read -r line; do
    uses=${line#*// uses: }
    uses=${uses%% | probe: *}
    probe=${line##* | probe: }
    # grep reads the files itself: `cat … | grep -q` under pipefail fails whenever grep stops at
    # its first match before cat has written everything (cat dies of SIGPIPE), as on a busy machine.
    if [[ $stages == *uses* ]] && ! grep -qF -- "$uses" "$apple"/*.swift; then
      echo "Apple stub: declares what no Apple file uses ('$uses'): $line"
      status=1
    fi
    index=$((index + 1))
    printf 'import Foundation\nfunc probe%d() throws { _ = %s }\n' "$index" "$probe" >"$work/probe/$index.swift"
    printf 'func probe%d() throws { _ = %s }\n' "$index" "$probe" >>"$work/probe/all.swift"
  done < <(cat "${stubs[@]}" | grep -vE '^[[:space:]]*//' | grep -E '// uses: .+ \| probe: .+')
  if [ "$index" = 0 ]; then
    echo "Apple stub: $stub declares nothing with '// uses: … | probe: …'"
    return 1
  fi
  if [[ $stages == *probes* ]]; then
    if ! swiftc -typecheck -swift-version 5 -module-name Probe "${stubs[@]}" "$work/probe/all.swift" >"$work/log" 2>&1; then
      grep -E 'error:' "$work/log" | sort -u
      echo "Apple stub: a probe does not compile even with the stub: fix the probe"
      status=1
    fi
    # Each probe alone, without the stub, must fail: two at a time (the machine has two cores).
    ls "$work"/probe/[0-9]*.swift | xargs -P 2 -I{} sh -c \
      'if swiftc -typecheck -swift-version 5 "$1" >/dev/null 2>&1; then echo "Apple stub: Linux'"'"'s Foundation already has what the stub declares: $(sed -n 2p "$1")"; fi' _ {} \
      >"$work/present"
    if [ -s "$work/present" ]; then
      cat "$work/present"
      status=1
    fi
  fi
  rm -rf "$work"
  return $status
}

self_test() {
  local work failures=0
  work=$(mktemp -d)
  # expect_failure NAME APPLE_FOLDER STUB: the check must fail.
  expect_failure() {  # expect_failure WHAT APPLE_FOLDER STUB STAGES
    if check "$2" "$3" "$4" >"$work/out" 2>&1; then
      echo "self-test: the check passed $1"
      failures=$((failures + 1))
    else
      echo "self-test: fails, as it must, $1 ($(tail -1 "$work/out"))"
    fi
  }
  mutate() {  # mutate NAME SED_EXPRESSION: a copy of the Apple files with one change
    mkdir -p "$work/$1"
    cp "$APPLE"/*.swift "$work/$1/"
    sed -i -E "$2" "$work/$1"/*.swift
    if diff -rq "$APPLE" "$work/$1" >/dev/null; then echo "self-test: '$2' changed nothing"; failures=$((failures + 1)); fi
  }
  mutate misspelt 's/startDownloadingUbiquitousItem\(at:/startDownloadingUbiquitousItems(at:/'
  expect_failure "on a misspelt call (startDownloadingUbiquitousItems)" "$work/misspelt" "$STUB" types
  mutate pointer '0,/error: &failure/s//error: failure/'
  expect_failure "on a misused signature (an NSError? where an NSErrorPointer goes)" "$work/pointer" "$STUB" types
  mutate label 's/performExpiringActivity\(withReason:/performExpiringActivity(reason:/'
  expect_failure "on a wrong argument label (performExpiringActivity(reason:))" "$work/label" "$STUB" types
  mutate cloudkit 's/engine\.fetchChanges\(\)/engine.fetchChange()/'
  expect_failure "on a misspelt CloudKit call (engine.fetchChange())" "$work/cloudkit" "$STUB" types
  mutate throwing '0,/try wait \{ try await engine\.sendChanges\(\) \}/s//try wait { await engine.sendChanges() }/'
  expect_failure "on a throwing CloudKit call made without try (sendChanges)" "$work/throwing" "$STUB" types
  cp "$STUB" "$work/unused.swift"
  printf '%s\n' 'extension FileManager { func evictUbiquitousItem(at url: URL) throws {} }  // uses: evictUbiquitousItem(at: | probe: try? FileManager.default.evictUbiquitousItem(at: URL(fileURLWithPath: "/"))' >>"$work/unused.swift"
  expect_failure "on a stub declaration no Apple file uses" "$APPLE" "$work/unused.swift" uses
  cp "$STUB" "$work/linux.swift"
  printf '%s\n' 'extension FileManager { var appleStubProbe: Int { 0 } }  // uses: FileManager.default | probe: FileManager.default.fileExists(atPath: "/")' >>"$work/linux.swift"
  expect_failure "on a stub declaration Linux's Foundation already has" "$APPLE" "$work/linux.swift" probes
  if check "$APPLE" "$STUB" >"$work/out" 2>&1; then
    echo "self-test: the unchanged files pass"
  else
    cat "$work/out"
    failures=$((failures + 1))
  fi
  rm -rf "$work"
  [ "$failures" = 0 ] || { echo "self-test: $failures case(s) went wrong"; exit 1; }
  echo "self-test: the Apple stub check fails on each broken case and passes the real files"
}

case "${1:-}" in
  --self-test) self_test ;;
  "")
    check "$APPLE" "$STUB"
    echo "Apple stub: $(ls "$APPLE"/*.swift | wc -l) Apple files type-check against $(cat "$STUB" "$CLOUDKIT_STUB" | grep -vE '^[[:space:]]*//' | grep -cE '// uses: ') Apple declarations, each used and each missing on Linux."
    ;;
  *) echo "usage: $0 [--self-test]" >&2; exit 64 ;;
esac
