#!/usr/bin/env bash
# Mutation check of the store's flushes (issue #31): removes each flush call in Sources/PlainStore,
# one at a time, in a copy of the package (.build-mutants/src, built into .build-mutants/build),
# and runs the power-loss explorer (PowerLossTests) against the mutant's plainstore-stress.
# Prints a table: each site, and the scenarios that caught its removal, or — when none did — the
# reason the comment beside it gives (a line `// No power-loss state needs this flush: <why>`
# right above it). A site neither caught nor explained fails the script.
#
# Slow (a build and an explorer run per site, about 3 minutes each here): not part of CI.
#   Scripts/check-flushes.sh              every site
#   Scripts/check-flushes.sh FILE:LINE…   only those
# Needs `swift build --build-tests` done in this package first (the explorer's test binary).
set -euo pipefail
cd "$(dirname "$0")/.."
package=$(pwd)
work="$package/.build-mutants"
source="$work/src"
mkdir -p "$work"
started=$(date +%s)

# The flush calls: fsync, fdatasync, F_FULLFSYNC, FileSystem.flush and the folder flushes, not
# their declarations or comments.
sites() {
  grep -rnE '\b(fsync|fdatasync|flush|syncFolder|flushToDisk|flushFile)\(|F_FULLFSYNC' Sources/PlainStore --include='*.swift' \
    | grep -vE '^[^:]+:[0-9]+:\s*//' \
    | grep -vE 'func (flush|syncFolder|flushToDisk|flushFile)\b' \
    | cut -d: -f1,2
}

if [ $# -gt 0 ]; then list="$*"; else list=$(sites); fi

# The package's sources, once, and a pristine copy that a mutated file is put back from (the
# package may change while this runs).
copy_package() {
  rm -rf "$source" "$work/pristine"
  mkdir -p "$source" "$work/pristine"
  tar -C "$package" --exclude='./.build*' --exclude='./.git' --exclude='./.swiftpm' -cf - . | tar -C "$source" -xf -
  tar -C "$package" --exclude='./.build*' --exclude='./.git' --exclude='./.swiftpm' -cf - . | tar -C "$work/pristine" -xf -
}

# Replaces the flush call at FILE:LINE in the copy: a call whose result is checked becomes
# `Int32(0)` (success), a `try` call becomes `()`.
mutate() {
  python3 - "$source/$1" "$2" <<'EOF'
import re, sys
path, line = sys.argv[1], int(sys.argv[2])
text = open(path).read()
lines = text.split("\n")
start = sum(len(l) + 1 for l in lines[:line - 1])
end_of_line = start + len(lines[line - 1])
name = re.compile(r"(try\??\s+)?((?:FileSystem|self)\.)?\b(fsync|fdatasync|flush|syncFolder|flushToDisk|flushFile)\(")
def call_end(position):
    depth = 0
    for index in range(position, len(text)):
        if text[index] == "(":
            depth += 1
        elif text[index] == ")":
            depth -= 1
            if depth == 0:
                return index + 1
    raise SystemExit("unbalanced call")
out, position, changed = "", start, 0
while True:
    match = name.search(text, position, end_of_line)
    if not match:
        break
    open_paren = match.end() - 1
    close = call_end(open_paren)
    out += text[position:match.start()] + ("()" if match.group(1) else "Int32(0)")
    position = close
    changed += 1
    end_of_line = max(end_of_line, close)
if changed == 0:
    raise SystemExit("no flush call at %s:%d" % (path, line))
open(path, "w").write(text[:start] + out + text[position:])
EOF
}

# The reason a comment right above FILE:LINE gives, if any.
reason() {
  awk -v line="$2" 'NR < line { lines[NR] = $0 } END {
    for (n = line - 1; n > 0 && lines[n] ~ /^[ \t]*\/\//; n--) {
      if (lines[n] ~ /No power-loss state needs this flush:/) { sub(/.*No power-loss state needs this flush:[ \t]*/, "", lines[n]); print lines[n]; exit }
    }
  }' "$1"
}

copy_package
# The explorer's test binary, copied: the package's own build may change while this runs.
cp "$package/.build/debug/BabyDashboardPackageTests.xctest" "$work/tests.xctest"
echo "building the unmutated copy…" >&2
swift build --package-path "$source" --scratch-path "$work/build" --product plainstore-stress >"$work/build.log" 2>&1 \
  || { cat "$work/build.log"; exit 1; }

printf '%-72s %s\n' "site" "result"
uncaught=0
mutated=""
restore() { if [ -n "$mutated" ]; then cp -p "$work/pristine/$mutated" "$source/$mutated"; mutated=""; fi; }
trap restore EXIT
for site in $list; do
  restore
  file=${site%%:*}
  line=${site##*:}
  text=$(sed -n "${line}p" "$work/pristine/$file")
  if grep -q "F_FULLFSYNC\|canImport(Darwin)" <<<"$text" || awk -v line="$line" 'NR <= line && /#if canImport\(Darwin\)/ { open = NR } NR <= line && /#else|#endif/ { open = 0 } END { exit !(open) }' "$work/pristine/$file"; then
    printf '%-72s %s\n' "$site" "not run here: Apple platforms only"
    continue
  fi
  mutated=$file
  if ! mutate "$file" "$line" 2>"$work/mutate.log"; then
    printf '%-72s %s\n' "$site" "could not remove: $(cat "$work/mutate.log")"
    uncaught=$((uncaught + 1))
    continue
  fi
  if ! swift build --package-path "$source" --scratch-path "$work/build" --product plainstore-stress >"$work/build.log" 2>&1; then
    printf '%-72s %s\n' "$site" "the mutant does not build: $(grep -m1 error: "$work/build.log")"
    uncaught=$((uncaught + 1))
    continue
  fi
  PLAINSTORE_STRESS="$work/build/debug/plainstore-stress" "$work/tests.xctest" --testing-library swift-testing --filter PowerLossTests \
    >"$work/explorer.log" 2>&1 || true
  restore
  caught=$(grep -E '^PowerLoss: [^:]+: .*states opened, [1-9][0-9]* failed' "$work/explorer.log" | sed -E 's/^PowerLoss: ([^:]+):.*/\1/' | paste -sd, - || true)
  if [ -n "$caught" ]; then
    printf '%-72s %s\n' "$site" "caught: $caught"
  else
    why=$(reason "$work/pristine/$file" "$line")
    if [ -n "$why" ]; then
      printf '%-72s %s\n' "$site" "not needed: $why"
    else
      printf '%-72s %s\n' "$site" "NOT CAUGHT, and no comment says why it is not needed"
      uncaught=$((uncaught + 1))
    fi
  fi
done
echo "$(echo $list | wc -w) sites in $(( $(date +%s) - started )) s; $uncaught neither caught nor explained" >&2
[ "$uncaught" -eq 0 ]
