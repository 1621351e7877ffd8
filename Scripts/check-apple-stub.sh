#!/usr/bin/env bash
# Type-checks the code only Apple platforms compile, on Linux: the whole engine module as Apple
# platforms compile it — the binding files (Sources/PlainStore/Internal/Apple/) and every Apple
# branch elsewhere (SyncCarrier's carriers, FileSystem's flush and file times, the folder
# watcher's Darwin `#elseif`), with its Linux branches left out —
# against Scripts/apple-stub/AppleFoundation.swift and AppleCloudKit.swift, and the domain's
# (Sources/BabyDashboard/Apple/) against Scripts/apple-stub/SwiftData.swift: stubs of exactly
# the Apple declarations they use, copied from Apple's documentation. A misspelt or mistyped
# call into FileManager, NSMetadataQuery, NSFileCoordinator, ProcessInfo, CKSyncEngine or
# ModelContext, or into the binding from the engine, fails here.
#
#   Scripts/check-apple-stub.sh              run the check
#   Scripts/check-apple-stub.sh --self-test  prove it fails on a misspelt call (in a binding file or
#                                            an Apple branch elsewhere), a misused signature, a stub
#                                            declaration no file uses, and one that Linux's
#                                            Foundation already has
#
# The check: (1) the engine module (or the domain's Apple files), its Apple-only `#if` taken,
# type-checks with the stub, in Swift 6 mode; (2) every stub declaration (its `// uses:`
# text) appears in the Apple files; (3) every stub declaration is missing from Linux's
# Foundation: its `probe:` expression compiles with the stub and fails without it.
set -euo pipefail
cd "$(dirname "$0")/.."

STUB=Scripts/apple-stub/AppleFoundation.swift
# The CloudKit binding's declarations, checked alike, in a file of their own.
CLOUDKIT_STUB=Scripts/apple-stub/AppleCloudKit.swift
# The engine module, type-checked whole around the Apple folder checked (a self-test's mutated
# copy, or the real one): an Apple branch outside that folder is checked as much as its files.
ENGINE=Sources/PlainStore
APPLE=$ENGINE/Internal/Apple
# The domain's Apple files (SwiftData), type-checked as a module of their own that imports the
# built BabyDashboard module (`swift build` first; they use its public API only), against the
# stub compiled as the module they import.
DOMAIN_APPLE=Sources/BabyDashboard/Apple
DOMAIN_STUB=Scripts/apple-stub/SwiftData.swift
MODULES=.build/debug/Modules
APPLE_IF='^([[:space:]]*)#if[[:space:]]+(canImport\((Darwin|SwiftData)\)|os\((iOS|macOS|watchOS|tvOS|visionOS)\)([[:space:]]*\|\|[[:space:]]*os\((iOS|macOS|watchOS|tvOS|visionOS)\))*)[[:space:]]*$'
# The engine is type-checked as Apple platforms compile it: a Linux branch is left out, and a
# Darwin branch after one is taken. A libc import block (`#if canImport(Glibc)` first) still
# imports Glibc, which stands in for Darwin's C library.
LINUX_IF='^([[:space:]]*)#if[[:space:]]+os\(Linux\)[[:space:]]*$'
DARWIN_ELSEIF='^([[:space:]]*)#elseif[[:space:]]+canImport\(Darwin\)[[:space:]]*$'

# check APPLE_FOLDER STUB_FILE [STAGES] [KIND]: prints what fails; exits 1 if anything does.
# STAGES (default "types uses probes") picks the parts to run. KIND: engine (default: the files
# in module PlainStore with their seams and the stub beside them) or domain (the stub is the
# module SwiftData, the files import BabyDashboard).
check() {
  local apple=$1 stub=$2 stages=${3:-types uses probes} kind=${4:-engine} work status=0
  work=$(mktemp -d)
  mkdir "$work/src" "$work/probe" "$work/modules"
  local probe_import='' stubs=("$stub") probe_stubs=() typecheck
  if [ "$kind" = domain ]; then
    for file in "$apple"/*.swift; do
      { echo "import BabyDashboard"; sed -E "s/$APPLE_IF/\\1#if true/" "$file"; } >"$work/src/$(basename "$file")"
    done
    swiftc -emit-module -parse-as-library -swift-version 6 -module-name SwiftData "$stub" -o "$work/modules/SwiftData.swiftmodule" >"$work/log" 2>&1 ||
      { cat "$work/log"; echo "Apple stub: $stub does not compile"; rm -rf "$work"; return 1; }
    typecheck=(swiftc -typecheck -swift-version 6 -module-name BabyDashboardApple -I "$work/modules" -I "$MODULES"
      -Xcc -fmodule-map-file=Sources/CSQLite/module.modulemap -Xcc -fmodule-map-file=Sources/CZlib/module.modulemap "$work"/src/*.swift)
    probe_import='import SwiftData'
    probe_stubs=(-I "$work/modules")
  else
    for file in "$apple"/*.swift; do
      sed -E "s/$APPLE_IF/\\1#if true/" "$file" >"$work/src/$(basename "$file")"
    done
    # The rest of the module, each file under its path (two folders may hold one file name).
    local file
    while IFS= read -r file; do
      mkdir -p "$work/src/module/$(dirname "$file")"
      sed -E "s/$APPLE_IF/\\1#if true/; s/$LINUX_IF/\\1#if false/; s/$DARWIN_ELSEIF/\\1#elseif true/" "$file" >"$work/src/module/$file"
    done < <(find "$ENGINE" -name '*.swift' -not -path "$ENGINE/Internal/Apple/*")
    stubs=("$stub" "$CLOUDKIT_STUB")
    probe_stubs=("${stubs[@]}")
    typecheck=(swiftc -typecheck -j2 -swift-version 6 -module-name PlainStore -package-name BabyDashboard "${stubs[@]}" "$work"/src/*.swift
      $(find "$work/src/module" -name '*.swift'))
  fi
  if [[ $stages == *types* ]] && ! "${typecheck[@]}" >"$work/log" 2>&1; then
    grep -E 'error:' "$work/log" | sed -E "s#$work/src/module/##; s#$work/src/#$apple/#" | sort -u
    echo "Apple stub: the Apple files do not type-check against ${stubs[*]}"
    status=1
  fi
  local line uses probe index=0
  printf 'import Foundation\n%s\n' "$probe_import" >"$work/probe/all.swift"
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
    if ! swiftc -typecheck -swift-version 5 -module-name Probe "${probe_stubs[@]}" "$work/probe/all.swift" >"$work/log" 2>&1; then
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
  # expect_failure CASE WHAT APPLE_FOLDER STUB STAGES [KIND]: the check must fail; the verdict
  # goes to $work/CASE.verdict ("ok …" or "wrong …"), read once every case has run.
  expect_failure() {
    if check "$3" "$4" "$5" "${6:-engine}" >"$work/$1.out" 2>&1; then
      echo "wrong: the check passed $2" >"$work/$1.verdict"
    else
      echo "ok: fails, as it must, $2 ($(tail -1 "$work/$1.out"))" >"$work/$1.verdict"
    fi
  }
  # Two cases at a time (the machine has two cores): each types a whole module.
  in_background() {
    while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
    "$@" &
  }
  # mutate CASE FILE SED_EXPRESSION: a copy of the engine (FILE relative to it) or of the domain's
  # Apple folder (FILE under it) with one change, which must change something.
  mutate() {
    local source=$ENGINE
    [[ $2 == "$DOMAIN_APPLE"/* ]] && source=$DOMAIN_APPLE
    mkdir -p "$work/$1"
    cp -R "$source/." "$work/$1/"
    sed -i -E "$3" "$work/$1/${2#"$DOMAIN_APPLE"/}"
    if diff -rq "$source" "$work/$1" >/dev/null; then echo "wrong: '$3' changed nothing in $2" >"$work/$1.changed"; fi
  }
  # engine_case CASE FILE SED WHAT: the engine with FILE mutated must fail to type-check.
  engine_case() {
    mutate "$1" "$2" "$3"
    ENGINE=$work/$1 in_background expect_failure "$1" "$4" "$work/$1/Internal/Apple" "$STUB" types
  }
  engine_case misspelt Internal/Apple/AppleUbiquityService.swift 's/startDownloadingUbiquitousItem\(at:/startDownloadingUbiquitousItems(at:/' \
    "on a misspelt call (startDownloadingUbiquitousItems)"
  engine_case pointer Internal/Apple/AppleUbiquityService.swift '0,/error: &failure/s//error: failure/' \
    "on a misused signature (an NSError? where an NSErrorPointer goes)"
  engine_case label Internal/Apple/AppleBackgroundAssertion.swift 's/performExpiringActivity\(withReason:/performExpiringActivity(reason:/' \
    "on a wrong argument label (performExpiringActivity(reason:))"
  engine_case fullfsync Internal/Apple/AppleFileCalls.swift 's/F_FULLFSYNC\)/F_FULLSYNC)/' \
    "on a misspelt constant (F_FULLSYNC, in the flush)"
  engine_case cloudkit Internal/Apple/AppleCloudKitService.swift 's/engine\.fetchChanges\(\)/engine.fetchChange()/' \
    "on a misspelt CloudKit call (engine.fetchChange())"
  engine_case throwing Internal/Apple/AppleCloudKitService.swift '0,/try wait \{ try await engine\.sendChanges\(\) \}/s//try wait { await engine.sendChanges() }/' \
    "on a throwing CloudKit call made without try (sendChanges)"
  # The Apple branches outside the Apple folder.
  engine_case carrier SyncCarrier.swift 's/AppleUbiquityService\(containerIdentifier:/AppleUbiquityService(container:/' \
    "on a wrong label in SyncCarrier.iCloudDrive's Apple branch"
  engine_case watcher Internal/Observation/FolderWatcher.swift 's/AppleFileCalls\.watchFolders\(/AppleFileCalls.watchFolder(/' \
    "on a misspelt call in the folder watcher's Darwin branch (an #elseif)"
  engine_case flush Internal/Files/FileSystem.swift 's/AppleFileCalls\.flush\(fd\)/AppleFileCalls.flush(fd, dataOnly)/' \
    "on a wrong call in FileSystem's Apple flush"
  cp "$STUB" "$work/unused.swift"
  printf '%s\n' 'extension FileManager { func evictUbiquitousItem(at url: URL) throws {} }  // uses: evictUbiquitousItem(at: | probe: try? FileManager.default.evictUbiquitousItem(at: URL(fileURLWithPath: "/"))' >>"$work/unused.swift"
  in_background expect_failure unused "on a stub declaration no Apple file uses" "$APPLE" "$work/unused.swift" uses
  cp "$STUB" "$work/linux.swift"
  printf '%s\n' 'extension FileManager { var appleStubProbe: Int { 0 } }  // uses: FileManager.default | probe: FileManager.default.fileExists(atPath: "/")' >>"$work/linux.swift"
  in_background expect_failure linux "on a stub declaration Linux's Foundation already has" "$APPLE" "$work/linux.swift" probes
  mutate swiftDataMisspelt "$DOMAIN_APPLE/SwiftDataBackoutStore.swift" 's/context\.rollback\(\)/context.rollBack()/'
  in_background expect_failure swiftDataMisspelt "on a misspelt SwiftData call (rollBack)" "$work/swiftDataMisspelt" "$DOMAIN_STUB" types domain
  mutate swiftDataLabel "$DOMAIN_APPLE/SwiftDataBackoutStore.swift" 's/context\.insert\(row\)/context.insert(model: row)/'
  in_background expect_failure swiftDataLabel "on a wrong SwiftData argument label (insert(model:))" "$work/swiftDataLabel" "$DOMAIN_STUB" types domain
  wait
  local verdict
  for verdict in "$work"/*.changed "$work"/*.verdict; do
    [ -e "$verdict" ] || continue
    echo "self-test: $(cut -d' ' -f2- "$verdict")"
    grep -q '^wrong' "$verdict" && failures=$((failures + 1))
  done
  if check "$APPLE" "$STUB" >"$work/out" 2>&1 && check "$DOMAIN_APPLE" "$DOMAIN_STUB" "types uses probes" domain >>"$work/out" 2>&1; then
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
    check "$DOMAIN_APPLE" "$DOMAIN_STUB" "types uses probes" domain
    echo "Apple stub: $(ls "$APPLE"/*.swift "$DOMAIN_APPLE"/*.swift | wc -l) Apple files type-check against $(cat "$STUB" "$CLOUDKIT_STUB" "$DOMAIN_STUB" | grep -vE '^[[:space:]]*//' | grep -cE '// uses: ') Apple declarations, each used and each missing on Linux."
    ;;
  *) echo "usage: $0 [--self-test]" >&2; exit 64 ;;
esac
