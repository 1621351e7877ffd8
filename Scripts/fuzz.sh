#!/usr/bin/env bash
# Fuzzes the readers of untrusted bytes with libFuzzer (swiftc -sanitize=fuzzer,address), each for
# a fixed time, starting from the committed seeds in Fuzz/corpus/<target>/; fails on a crash, a
# hang or a sanitizer report, and keeps the input that caused it in Fuzz/crashes/.
#
#   Scripts/fuzz.sh [SECONDS] [TARGET...]   default: 60 seconds for each of every target
#
# Targets (Fuzz/Targets/):
#   json         the store's JSON parser (PlainStore Internal/JSON/JSONParser) and decoder
#   change-file  the change-file decoder (Truth/ChangeFileCodec, ChangeFile)
#   snapshot     the snapshot decoder (Truth/ChangeFileCodec, ChangeSnapshot)
#   plist        the SwiftData importer's binary property-list reader (BinaryPropertyList)
#
# The targets are built from the package's own sources, never copies: the engine as a static
# library compiled for testing (its internal types reached through `@testable import`), the
# property-list reader as its one source file with its target. Reproduce a crash with
# `.build-fuzz/<target> Fuzz/crashes/<file>`.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} = 0 ] && targets=(json change-file snapshot plist)
case "$seconds" in '' | *[!0-9]*) echo "usage: Scripts/fuzz.sh [SECONDS] [json|change-file|snapshot|plist]..." >&2; exit 64 ;; esac

out=.build-fuzz
mkdir -p "$out" Fuzz/crashes
flags=(-swift-version 6 -parse-as-library -O -wmo -g -sanitize=fuzzer,address -package-name BabyDashboard)

engine() {
  [ -f "$out/libPlainStore.a" ] && [ -z "$(find Sources/PlainStore -name '*.swift' -newer "$out/libPlainStore.a")" ] && return
  echo "   (the engine first, once)"
  swiftc "${flags[@]}" -module-name PlainStore -enable-testing -emit-module -emit-module-path "$out/PlainStore.swiftmodule" \
    -emit-library -static -o "$out/libPlainStore.a" $(find Sources/PlainStore -name '*.swift' | sort)
}

build() {
  case "$1" in
    json) engine && swiftc "${flags[@]}" -I "$out" Fuzz/Targets/JSONParserFuzz.swift "$out/libPlainStore.a" -o "$out/json" ;;
    change-file) engine && swiftc "${flags[@]}" -I "$out" Fuzz/Targets/ChangeFileFuzz.swift Fuzz/Support/FuzzEnvelope.swift "$out/libPlainStore.a" -o "$out/change-file" ;;
    snapshot) engine && swiftc "${flags[@]}" -I "$out" Fuzz/Targets/ChangeSnapshotFuzz.swift Fuzz/Support/FuzzEnvelope.swift "$out/libPlainStore.a" -o "$out/snapshot" ;;
    plist) swiftc "${flags[@]}" -module-name BinaryPropertyListFuzz \
      Sources/BabyDashboard/LegacyImport/SwiftDataStore/Internal/BinaryPropertyList.swift Fuzz/Targets/BinaryPropertyListFuzz.swift -o "$out/plist" ;;
    *) echo "unknown fuzz target '$1' (json, change-file, snapshot, plist)" >&2; exit 64 ;;
  esac
}

failed=0
for target in "${targets[@]}"; do
  echo "== $target: building"
  # The linker's warnings about the sanitizer's local symbols are noise: shown only on failure.
  build "$target" >"$out/$target.build.log" 2>&1 || { grep -v 'Cannot export local symbol' "$out/$target.build.log"; exit 1; }
  # What the fuzzer finds goes to a working corpus outside the repository; the committed seeds
  # stay as they are.
  work="$out/corpus/$target"
  mkdir -p "$work"
  echo "== $target: fuzzing for $seconds s"
  status=0
  # detect_leaks=0: the Swift runtime's caches live until exit and would read as leaks.
  ASAN_OPTIONS=detect_leaks=0 "$out/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="Fuzz/crashes/$target-" "$work" "Fuzz/corpus/$target" >"$out/$target.log" 2>&1 || status=$?
  grep -E '^stat::number_of_executed_units|^stat::new_units_added|^Done [0-9]+ runs' "$out/$target.log" || true
  if [ "$status" != 0 ]; then
    grep -E 'ERROR|panic|Fatal error|SUMMARY|Test unit written' "$out/$target.log" | head -n 10 || true
    echo "== $target: FAILED (exit $status); input kept in Fuzz/crashes/, log: $out/$target.log"
    failed=1
  else
    echo "== $target: no crash"
  fi
done
exit "$failed"
