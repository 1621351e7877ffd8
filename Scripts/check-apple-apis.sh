#!/usr/bin/env bash
# Fails when a library target uses an API that iOS, watchOS or tvOS do not have, outside a branch
# that only macOS or Linux compile (#if os(macOS) || os(Linux), canImport(Glibc), the #else of
# canImport(Darwin), ...). This machine cannot build for those platforms; this is the check it can run.
#
#   Scripts/check-apple-apis.sh [ROOT]      check the package at ROOT (default: this repository)
#   Scripts/check-apple-apis.sh --self-test prove the check fails when a listed API is put back
#
# Library targets are the `.target(name:)` entries of Package.swift (executables and tests may use
# anything). The list below comes from Apple's availability annotations (developer.apple.com):
# extend it when a new API is found unavailable.
set -euo pipefail

# name <TAB> extended regular expression <TAB> why <TAB> a line that must trip it (for --self-test)
RULES=$(cat <<'EOF'
homeDirectoryForCurrentUser	homeDirectoryForCurrentUser	FileManager.homeDirectoryForCurrentUser is macOS-only (10.12+); use NSHomeDirectory()	let home = FileManager.default.homeDirectoryForCurrentUser
homeDirectory(forUser:)	homeDirectory\(forUser:	homeDirectory(forUser:) is macOS-only on FileManager; no other user's home exists in an app sandbox	let home = FileManager.default.homeDirectory(forUser: "mia")
Process	(^|[^A-Za-z0-9_])Process([^A-Za-z0-9_]|$)	Process (NSTask) is macOS-only: apps cannot start processes	let child = Process()
Host	(^|[^A-Za-z0-9_.])Host([^A-Za-z0-9_]|$)	Host (NSHost) is macOS-only	let name = Host.current().localizedName
NSUserName	(^|[^A-Za-z0-9_])NS(Full)?UserName([^A-Za-z0-9_]|$)	NSUserName()/NSFullUserName() name the sandbox's user on iOS ("mobile"): never a value a library may rely on	let user = NSUserName()
ProcessInfo.userName	[Pp]rocessInfo[A-Za-z0-9_.]*\.(userName|fullUserName)([^A-Za-z0-9_]|$)	ProcessInfo.userName/fullUserName are macOS-only (10.12+)	let user = ProcessInfo.processInfo.userName
CommandLine	(^|[^A-Za-z0-9_])CommandLine\.	CommandLine belongs to executables: a library takes its arguments as parameters	let arguments = CommandLine.arguments
DistributedNotificationCenter	DistributedNotificationCenter	DistributedNotificationCenter is macOS-only (and Mac Catalyst)	let center = DistributedNotificationCenter.default()
NSBackgroundActivityScheduler	NSBackgroundActivityScheduler	NSBackgroundActivityScheduler is macOS-only (10.10+)	let scheduler = NSBackgroundActivityScheduler(identifier: "x")
NSAppleScript	NS(AppleScript|UserScriptTask|UserUnixTask|UserAppleScriptTask|UserAutomatorTask)	NSAppleScript and the NSUser*Task classes are macOS-only	let script = NSAppleScript(source: "beep")
trashItem	trashItem\(at:	FileManager.trashItem(at:resultingItemURL:) exists on macOS and iOS 11+, not on watchOS or tvOS	try FileManager.default.trashItem(at: url, resultingItemURL: nil)
unmountVolume	unmountVolume\(	FileManager.unmountVolume is macOS-only (10.11+)	FileManager.default.unmountVolume(at: url) { _ in }
import Glibc	import[[:space:]]+(Glibc|Musl)([^A-Za-z0-9_]|$)	Glibc and Musl exist on Linux only: import them under #if canImport(Glibc)	import Glibc
Glibc.	(^|[^A-Za-z0-9_])(Glibc|Musl)\.	a Glibc-qualified call compiles on Linux only	let pid = Glibc.getpid()
inotify	(^|[^A-Za-z0-9_])inotify_[a-z0-9_]+	inotify is Linux-only (Apple platforms: DispatchSource file-system events)	let fd = inotify_init1(0)
epoll	(^|[^A-Za-z0-9_])epoll_[a-z_]+	epoll is Linux-only (Apple platforms: kqueue)	let fd = epoll_create1(0)
Linux fds	(^|[^A-Za-z0-9_])(eventfd|signalfd|timerfd_create|timerfd_settime|memfd_create|pipe2|dup3|accept4)\(	a Linux-only system call	let fd = eventfd(0, 0)
Linux file calls	(^|[^A-Za-z0-9_])(renameat2|statx|syncfs|posix_fadvise|fallocate|sendfile64|copy_file_range)\(	a Linux-only file call	let status = syncfs(fd)
Linux open flags	(^|[^A-Za-z0-9_])O_(TMPFILE|PATH|DIRECT|NOATIME|LARGEFILE)([^A-Za-z0-9_]|$)	an open(2) flag Darwin does not define	let fd = open(path, O_TMPFILE)
st_mtim	(^|[^A-Za-z0-9_])st_[amc]tim([^A-Za-z0-9_]|$)	st_mtim/st_atim/st_ctim are Linux's stat fields (Darwin: st_mtimespec)	let modified = info.st_mtim.tv_sec
Linux process calls	(^|[^A-Za-z0-9_])(gettid|prctl|mallinfo2?|malloc_usable_size|sched_getaffinity|get_nprocs)\(	a glibc-only call	let thread = gettid()
/proc	/proc/	/proc is Linux's; Apple platforms have no proc file system	let status = try String(contentsOfFile: "/proc/self/status")
EOF
)

usage() { echo "usage: $0 [--self-test | ROOT]" >&2; exit 64; }

# The library targets of the package at $1, one path a line.
library_folders() {
  local root=$1
  grep -oE '\.target\(name: *"[^"]+"' "$root/Package.swift" | sed -E 's/.*"([^"]+)"/\1/' | while read -r name; do
    [ -d "$root/Sources/$name" ] && echo "$root/Sources/$name"
  done
}

# Prints `file:line: API — why` for each use outside a macOS/Linux-only branch; exits 1 if any.
scan() {
  local rules_file
  rules_file=$(mktemp)
  printf '%s\n' "$RULES" >"$rules_file"
  local status=0
  find "$@" -name '*.swift' -type f -print0 | sort -z | xargs -0 awk -v rules_file="$rules_file" '
    function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
    # A condition compiled only on macOS or Linux (or other non-Apple systems): every disjunct has
    # a conjunct that rules out iOS, watchOS and tvOS.
    function macOrLinuxOnly(cond,    parts, n, i, conj, m, j, ok, c) {
      gsub(/[ \t()]/, "", cond)
      n = split(cond, parts, /\|\|/)
      for (i = 1; i <= n; i++) {
        m = split(parts[i], conj, /&&/); ok = 0
        for (j = 1; j <= m; j++) {
          c = conj[j]
          if (c ~ /^os(macOS|Linux|Windows|Android|FreeBSD|OpenBSD|WASI)$/ || c ~ /^canImport(Glibc|Musl|AppKit|WinSDK|Android)$/ || c == "!canImportDarwin") ok = 1
        }
        if (!ok) return 0
      }
      return n > 0
    }
    # A condition true on every one of iOS, watchOS and tvOS: its #else runs on none of them.
    function coversApple(cond) {
      gsub(/[ \t()]/, "", cond)
      if (cond ~ /(^|\|\|)canImportDarwin($|\|\|)/) return 1
      return cond ~ /(^|\|\|)osiOS($|\|\|)/ && cond ~ /(^|\|\|)oswatchOS($|\|\|)/ && cond ~ /(^|\|\|)ostvOS($|\|\|)/
    }
    function guarded(   i) { for (i = 1; i <= depth; i++) if (branch[i]) return 1; return 0 }
    BEGIN {
      FS = "\n"
      while ((getline rule < rules_file) > 0) {
        split(rule, field, "\t"); count++
        name[count] = field[1]; pattern[count] = field[2]; why[count] = field[3]
      }
    }
    FNR == 1 { depth = 0; inBlock = 0; inMultiline = 0 }
    {
      line = $0
      # Multi-line string literals and block comments are text, not calls.
      if (inMultiline) { if (line ~ /"""/) inMultiline = 0; next }
      if (inBlock) { if (line ~ /\*\//) { inBlock = 0; sub(/.*\*\//, "", line) } else next }
      gsub(/\/\*.*\*\//, "", line)
      if (line ~ /\/\*/) { inBlock = 1; sub(/\/\*.*/, "", line) }
      # A line that opens or closes a multi-line string is skipped whole.
      if (line ~ /"""/) { marks = line; if (gsub(/"""/, "", marks) % 2 == 1) inMultiline = 1; next }
      raw = line
      sub(/^[ \t]*\/\/.*/, "", raw)
      gsub(/"([^"\\]|\\.)*"/, "\"\"", line)
      sub(/\/\/.*/, "", line)
      directive = trim(line)
      if (directive ~ /^#if[ \t(!]/) { depth++; cond[depth] = substr(directive, 4); branch[depth] = macOrLinuxOnly(cond[depth]); apple[depth] = coversApple(cond[depth]); next }
      if (directive ~ /^#elseif[ \t(!]/) { c = substr(directive, 8); branch[depth] = macOrLinuxOnly(c); apple[depth] = apple[depth] || coversApple(c); next }
      if (directive ~ /^#else/) { branch[depth] = apple[depth]; next }
      if (directive ~ /^#endif/) { if (depth > 0) depth--; next }
      if (guarded()) next
      for (i = 1; i <= count; i++) {
        subject = (name[i] == "/proc") ? raw : line
        if (subject ~ pattern[i]) { printf "%s:%d: %s — %s\n", FILENAME, FNR, name[i], why[i]; found = 1 }
      }
    }
    END { exit found ? 1 : 0 }
  ' || status=$?
  rm -f "$rules_file"
  return "$status"
}

check() {
  local root=$1
  local folders
  folders=$(library_folders "$root")
  if [ -z "$folders" ]; then
    echo "error: no library target found in '$root/Package.swift'" >&2
    return 2
  fi
  # shellcheck disable=SC2086  # one folder a word; the package's folder names have no spaces
  if scan $folders; then
    echo "Apple APIs: $(echo "$folders" | wc -l | tr -d ' ') library targets use nothing iOS, watchOS or tvOS lack."
  else
    echo "error: the uses above compile on macOS and Linux only — move them under #if os(macOS) || os(Linux), or use an API every platform has." >&2
    return 1
  fi
}

# Copies this package's manifest and sources, then puts each listed API back, in turn, into a
# library (must fail), into an executable and into a macOS/Linux-only branch (must pass).
self_test() {
  local repo work failures=0
  repo=$(cd "$(dirname "$0")/.." && pwd)
  work=$(mktemp -d)
  trap 'rm -rf "$work"' RETURN
  cp "$repo/Package.swift" "$work/"
  cp -R "$repo/Sources" "$work/"
  expect() {  # expect pass|fail DESCRIPTION
    local want=$1 what=$2 got
    if check "$work" >"$work/.out" 2>&1; then got=pass; else got=fail; fi
    if [ "$got" != "$want" ]; then
      echo "self-test FAILED: $what: expected $want, got $got" >&2
      sed 's/^/  | /' "$work/.out" >&2
      failures=$((failures + 1))
    fi
  }
  expect pass "the package as it is"
  local library executable
  library=$(library_folders "$work" | sed -n 1p)  # sed reads to the end: head could end the pipe early (SIGPIPE under pipefail)
  # The injections go into the first library's real sources; the others only slow each round.
  library_folders "$work" | tail -n +2 | while read -r other; do rm -rf "$other"; done
  executable="$work/Sources/$(grep -oE '\.executableTarget\(name: *"[^"]+"' "$work/Package.swift" | sed -n 1p | sed -E 's/.*"([^"]+)"/\1/')"
  while IFS=$'\t' read -r name _ _ sample; do
    local file="$library/Injected.swift"
    printf 'import Foundation\n\nfunc injected() throws {\n  %s\n}\n' "$sample" >"$file"
    expect fail "$name in a library"
    grep -qF "Injected.swift:4: $name" "$work/.out" || { echo "self-test FAILED: $name not named at Injected.swift:4" >&2; failures=$((failures + 1)); }
    printf 'func injected() throws {\n  #if os(Linux)\n  #elseif canImport(Darwin)\n    %s\n  #endif\n}\n' "$sample" >"$file"
    expect fail "$name in an #elseif canImport(Darwin) branch"
    printf 'func injected() throws {\n  #if os(macOS) || os(Linux)\n    %s\n  #endif\n}\n' "$sample" >"$file"
    expect pass "$name under #if os(macOS) || os(Linux)"
    printf '#if canImport(Darwin)\n  import Darwin\n#else\n  func injected() throws {\n    %s\n  }\n#endif\n' "$sample" >"$file"
    expect pass "$name in the #else of canImport(Darwin)"
    printf '// %s\nlet text = "%s"\n' "$sample" "${sample//\"/}" >"$file"
    [ "$name" = "/proc" ] || expect pass "$name in a comment or a string"
    rm -f "$file"
    if [ -d "$executable" ]; then
      printf 'func injected() throws {\n  %s\n}\n' "$sample" >"$executable/Injected.swift"
      expect pass "$name in an executable"
      rm -f "$executable/Injected.swift"
    fi
  done <<<"$RULES"
  if [ "$failures" -gt 0 ]; then
    echo "check-apple-apis self-test: $failures failures" >&2
    return 1
  fi
  echo "check-apple-apis self-test: $(printf '%s\n' "$RULES" | wc -l | tr -d ' ') APIs, each caught in a library and allowed where it may be."
}

case "${1:-}" in
  --self-test) self_test ;;
  -h | --help) usage ;;
  -*) usage ;;
  "") check "$(cd "$(dirname "$0")/.." && pwd)" ;;
  *) check "$1" ;;
esac
