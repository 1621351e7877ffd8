#!/usr/bin/env bash
# Type-checks the code only Apple platforms compile, on Linux: the whole engine module as Apple
# platforms compile it — the binding files (Sources/PlainStore/Internal/Apple/) and every Apple
# branch elsewhere (SyncCarrier's carriers, FileSystem's flush and file times, the folder
# watcher's Darwin `#elseif`), with its Linux branches left out —
# against Scripts/apple-stub/AppleFoundation.swift and AppleCloudKit.swift, and the domain's
# (Sources/BabyDashboard/Apple/) against Scripts/apple-stub/SwiftData.swift: stubs of exactly
# the Apple declarations they use, copied from Apple's documentation. A misspelt or mistyped
# call into FileManager, NSMetadataQuery, NSFileCoordinator, ProcessInfo, CKSyncEngine or
# ModelContext, or into the binding from the engine, fails here. The command-line tools'
# Darwin branches (babydash, babydash-bench) are type-checked alike; they need no stub.
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
# Each module is type-checked whole around the Apple folder checked (a self-test's mutated copy,
# or the real one): an Apple branch outside that folder is checked as much as its files.
ENGINE=Sources/PlainStore
APPLE=$ENGINE/Internal/Apple
# The domain (BabyDashboard, against the built PlainStore module: `swift build` first), its Apple
# folder's SwiftData calls against the stub compiled as the module SwiftData, its other Apple
# branches (the app group's container) against the Foundation declarations Linux lacks.
DOMAIN=Sources/BabyDashboard
DOMAIN_APPLE=$DOMAIN/Apple
DOMAIN_STUB=Scripts/apple-stub/SwiftData.swift
DOMAIN_FOUNDATION_STUB=Scripts/apple-stub/AppleDomainFoundation.swift
MODULES=.build/debug/Modules
# The package name SwiftPM built PlainStore's module under (the checkout folder's name): what the
# domain's `package` calls into the engine need.
PACKAGE=$(grep -o '"-package-name","[^"]*"' .build/debug.yaml 2>/dev/null | head -n 1 | cut -d'"' -f4 || true)
APPLE_IF='^([[:space:]]*)#if[[:space:]]+(canImport\((Darwin|SwiftData)\)|os\((iOS|macOS|watchOS|tvOS|visionOS)\)([[:space:]]*\|\|[[:space:]]*os\((iOS|macOS|watchOS|tvOS|visionOS)\))*)[[:space:]]*$'
# A module is type-checked as Apple platforms compile it: an Apple branch is taken, a Linux one
# (`#if os(Linux)`, `#if !canImport(Darwin)`) left out, and a Darwin branch after one taken. A libc
# import block (`#if canImport(Glibc)` first) still imports Glibc, which stands in for Darwin's C
# library.
LINUX_IF='^([[:space:]]*)#if[[:space:]]+(os\(Linux\)|!canImport\(Darwin\))[[:space:]]*$'
DARWIN_ELSEIF='^([[:space:]]*)#elseif[[:space:]]+canImport\(Darwin\)[[:space:]]*$'
darwin_view() { sed -E "s/$APPLE_IF/\\1#if true/; s/$LINUX_IF/\\1#if false/; s/$DARWIN_ELSEIF/\\1#elseif true/" "$1"; }

# check APPLE_FOLDER STUB_FILE [STAGES] [KIND]: prints what fails; exits 1 if anything does.
# STAGES (default "types uses probes") picks the parts to run. KIND: engine (default: module
# PlainStore, the stubs beside its files) or domain (module BabyDashboard, the SwiftData stub
# compiled as the module it imports).
check() {
  local apple=$1 stub=$2 stages=${3:-types uses probes} kind=${4:-engine} work status=0
  work=$(mktemp -d)
  mkdir "$work/src" "$work/probe" "$work/modules"
  local probe_import='' stubs probe_stubs typecheck module root own_apple file
  if [ "$kind" = domain ]; then
    module=BabyDashboard root=$DOMAIN own_apple=$DOMAIN/Apple
    swiftc -emit-module -parse-as-library -swift-version 6 -module-name SwiftData "$stub" -o "$work/modules/SwiftData.swiftmodule" >"$work/log" 2>&1 ||
      { cat "$work/log"; echo "Apple stub: $stub does not compile"; rm -rf "$work"; return 1; }
    stubs=("$DOMAIN_FOUNDATION_STUB")
    probe_stubs=(-I "$work/modules" "$DOMAIN_FOUNDATION_STUB")
    probe_import='import SwiftData'
  else
    module=PlainStore root=$ENGINE own_apple=$ENGINE/Internal/Apple
    stubs=("$stub" "$CLOUDKIT_STUB")
    probe_stubs=("${stubs[@]}")
  fi
  for file in "$apple"/*.swift; do darwin_view "$file" >"$work/src/$(basename "$file")"; done
  # The rest of the module, each file under its path (two folders may hold one file name).
  while IFS= read -r file; do
    mkdir -p "$work/src/module/$(dirname "$file")"
    darwin_view "$file" >"$work/src/module/$file"
  done < <(find "$root" -name '*.swift' -not -path "$own_apple/*")
  typecheck=(swiftc -typecheck -j2 -swift-version 6 -module-name "$module" -package-name "${PACKAGE:-babydashboard}" -I "$work/modules" -I "$MODULES"
    -Xcc -fmodule-map-file=Sources/CSQLite/module.modulemap -Xcc -fmodule-map-file=Sources/CZlib/module.modulemap
    "${stubs[@]}" "$work"/src/*.swift $(find "$work/src/module" -name '*.swift'))
  if [[ $stages == *types* ]] && ! "${typecheck[@]}" >"$work/log" 2>&1; then
    grep -E 'error:' "$work/log" | sed -E "s#$work/src/module/##; s#$work/src/#$apple/#" | sort -u
    echo "Apple stub: $module, as Apple platforms compile it, does not type-check against $stub ${stubs[*]}"
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
    if [[ $stages == *uses* ]] && ! grep -rqF -- "$uses" "$work/src"; then
      echo "Apple stub: declares what no Apple code uses ('$uses'): $line"
      status=1
    fi
    index=$((index + 1))
    printf 'import Foundation\nfunc probe%d() throws { _ = %s }\n' "$index" "$probe" >"$work/probe/$index.swift"
    printf 'func probe%d() throws { _ = %s }\n' "$index" "$probe" >>"$work/probe/all.swift"
  done < <(cat "$stub" "${stubs[@]}" | sort -u | grep -vE '^[[:space:]]*//' | grep -E '// uses: .+ \| probe: .+')
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

# The command-line tools (babydash, babydash-bench) have no Apple folder and call nothing Linux
# lacks: their few Darwin branches (the peak memory from getrusage, a flush with fsync) use the C
# library, for which Glibc stands in. Each is type-checked whole, as Apple platforms compile it,
# against the modules `swift build` built.
TOOLS=(Sources/babydash Sources/babydash-bench)

# check_tool FOLDER [MODULE]: prints what fails; exits 1 if anything does. MODULE defaults to the
# folder's name as SwiftPM spells a module (babydash-bench: babydash_bench).
check_tool() {
  local root=$1 work status=0 file module=${2:-}
  [ -n "$module" ] || module=$(basename "$root" | tr - _)
  work=$(mktemp -d)
  while IFS= read -r file; do
    mkdir -p "$work/$(dirname "$file")"
    darwin_view "$root/$file" >"$work/$file"
  done < <(cd "$root" && find . -name '*.swift')
  if ! swiftc -typecheck -j2 -swift-version 6 -module-name "$module" -package-name "${PACKAGE:-babydashboard}" -I "$MODULES" \
    -Xcc -fmodule-map-file=Sources/CSQLite/module.modulemap -Xcc -fmodule-map-file=Sources/CZlib/module.modulemap \
    $(find "$work" -name '*.swift') >"$work/log" 2>&1; then
    grep -E 'error:' "$work/log" | sed -E "s#$work/#$root/#" | sort -u
    echo "Apple stub: $root, as Apple platforms compile it, does not type-check"
    status=1
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
      # Its first error says why, so a case failing for another reason shows.
      echo "ok: fails, as it must, $2: $( (grep -m 1 -E '^[^ ].*error: ' "$work/$1.out" || tail -n 1 "$work/$1.out") | sed -E 's#^.*/([^/]+\.swift)#\1#')" >"$work/$1.verdict"
    fi
  }
  # expect_tool_failure CASE WHAT FOLDER MODULE: as expect_failure, for a command-line tool.
  expect_tool_failure() {
    if check_tool "$3" "$4" >"$work/$1.out" 2>&1; then
      echo "wrong: the check passed $2" >"$work/$1.verdict"
    else
      echo "ok: fails, as it must, $2: $( (grep -m 1 -E '^[^ ].*error: ' "$work/$1.out" || tail -n 1 "$work/$1.out") | sed -E 's#^.*/([^/]+\.swift)#\1#')" >"$work/$1.verdict"
    fi
  }
  # Two cases at a time (the machine has two cores): each types a whole module.
  in_background() {
    while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
    "$@" &
  }
  # mutate CASE FILE SED_EXPRESSION: a copy of FILE's module (the engine or the domain) with one
  # change to FILE, which must change something.
  mutate() {
    local source=$ENGINE
    [[ $2 == "$DOMAIN"/* ]] && source=$DOMAIN
    [[ $2 == Sources/babydash* ]] && source=${2%/*}
    mkdir -p "$work/$1"
    cp -R "$source/." "$work/$1/"
    sed -i -E "$3" "$work/$1/${2#"$source"/}"
    if diff -rq "$source" "$work/$1" >/dev/null; then echo "wrong: '$3' changed nothing in $2" >"$work/$1.changed"; fi
  }
  # broken CASE FILE SED WHAT: FILE's module with FILE mutated must fail to type-check.
  broken() {
    mutate "$1" "$2" "$3"
    if [[ $2 == Sources/babydash* ]]; then
      in_background expect_tool_failure "$1" "$4" "$work/$1" "$(basename "${2%/*}" | tr - _)"
    elif [[ $2 == "$DOMAIN"/* ]]; then
      DOMAIN=$work/$1 in_background expect_failure "$1" "$4" "$work/$1/Apple" "$DOMAIN_STUB" types domain
    else
      ENGINE=$work/$1 in_background expect_failure "$1" "$4" "$work/$1/Internal/Apple" "$STUB" types
    fi
  }
  broken misspelt "$APPLE/AppleUbiquityService.swift" 's/startDownloadingUbiquitousItem\(at:/startDownloadingUbiquitousItems(at:/' \
    "on a misspelt call (startDownloadingUbiquitousItems)"
  broken pointer "$APPLE/AppleUbiquityService.swift" '0,/error: &failure/s//error: failure/' \
    "on a misused signature (an NSError? where an NSErrorPointer goes)"
  broken label "$APPLE/AppleBackgroundAssertion.swift" 's/performExpiringActivity\(withReason:/performExpiringActivity(reason:/' \
    "on a wrong argument label (performExpiringActivity(reason:))"
  broken fullfsync "$APPLE/AppleFileCalls.swift" 's/F_FULLFSYNC\)/F_FULLSYNC)/' \
    "on a misspelt constant (F_FULLSYNC, in the flush)"
  broken cloudkit "$APPLE/AppleCloudKitService.swift" 's/engine\.fetchChanges\(\)/engine.fetchChange()/' \
    "on a misspelt CloudKit call (engine.fetchChange())"
  broken throwing "$APPLE/AppleCloudKitService.swift" '0,/try wait \{ try await engine\.sendChanges\(\) \}/s//try wait { await engine.sendChanges() }/' \
    "on a throwing CloudKit call made without try (sendChanges)"
  # The Apple branches outside the Apple folders.
  broken carrier "$ENGINE/SyncCarrier.swift" 's/AppleUbiquityService\(containerIdentifier:/AppleUbiquityService(container:/' \
    "on a wrong label in SyncCarrier.iCloudDrive's Apple branch"
  broken watcher "$ENGINE/Internal/Observation/FolderWatcher.swift" 's/AppleFileCalls\.watchFolders\(/AppleFileCalls.watchFolder(/' \
    "on a misspelt call in the folder watcher's Darwin branch (an #elseif)"
  broken flush "$ENGINE/Internal/Files/FileSystem.swift" 's/AppleFileCalls\.flush\(fd\)/AppleFileCalls.flush(fd, dataOnly)/' \
    "on a wrong call in FileSystem's Apple flush"
  broken appGroup "$DOMAIN/AppGroup.swift" 's/forSecurityApplicationGroupIdentifier: identifier/forApplicationGroupIdentifier: identifier/' \
    "on a wrong label in the app group's container (the domain's Apple branch)"
  broken toolMemory Sources/babydash-bench/Measurement.swift 's/usage\.ru_maxrss\)/usage.ru_maxrs)/' \
    "on a misspelt field in babydash-bench's Darwin peak memory (ru_maxrs)"
  broken toolFlush Sources/babydash-bench/DurableFileFloor.swift 's/^( *)fsync\(fd\)/\1fsync(fd, 1)/' \
    "on a wrong call in babydash-bench's Darwin flush (fsync(fd, 1))"
  cp "$STUB" "$work/unused.swift"
  printf '%s\n' 'extension FileManager { func evictUbiquitousItem(at url: URL) throws {} }  // uses: evictUbiquitousItem(at: | probe: try? FileManager.default.evictUbiquitousItem(at: URL(fileURLWithPath: "/"))' >>"$work/unused.swift"
  in_background expect_failure unused "on a stub declaration no Apple file uses" "$APPLE" "$work/unused.swift" uses
  cp "$STUB" "$work/linux.swift"
  printf '%s\n' 'extension FileManager { var appleStubProbe: Int { 0 } }  // uses: FileManager.default | probe: FileManager.default.fileExists(atPath: "/")' >>"$work/linux.swift"
  in_background expect_failure linux "on a stub declaration Linux's Foundation already has" "$APPLE" "$work/linux.swift" probes
  broken swiftDataMisspelt "$DOMAIN_APPLE/SwiftDataBackoutStore.swift" 's/context\.rollback\(\)/context.rollBack()/' \
    "on a misspelt SwiftData call (rollBack)"
  broken swiftDataLabel "$DOMAIN_APPLE/SwiftDataBackoutStore.swift" 's/context\.insert\(row\)/context.insert(model: row)/' \
    "on a wrong SwiftData argument label (insert(model:))"
  wait
  local verdict
  for verdict in "$work"/*.changed "$work"/*.verdict; do
    [ -e "$verdict" ] || continue
    echo "self-test: $(cut -d' ' -f2- "$verdict")"
    grep -q '^wrong' "$verdict" && failures=$((failures + 1))
  done
  if check "$APPLE" "$STUB" >"$work/out" 2>&1 && check "$DOMAIN_APPLE" "$DOMAIN_STUB" "types uses probes" domain >>"$work/out" 2>&1 &&
    check_tool "${TOOLS[0]}" >>"$work/out" 2>&1 && check_tool "${TOOLS[1]}" >>"$work/out" 2>&1; then
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
    for tool in "${TOOLS[@]}"; do check_tool "$tool"; done
    echo "Apple stub: PlainStore, BabyDashboard, babydash and babydash-bench, as Apple platforms compile them ($(ls "$APPLE"/*.swift "$DOMAIN_APPLE"/*.swift | wc -l) Apple files and every Apple branch elsewhere), type-check against $(cat "$STUB" "$CLOUDKIT_STUB" "$DOMAIN_STUB" "$DOMAIN_FOUNDATION_STUB" | grep -vE '^[[:space:]]*//' | grep -cE '// uses: ') Apple declarations, each used and each missing on Linux."
    ;;
  *) echo "usage: $0 [--self-test]" >&2; exit 64 ;;
esac
