#!/usr/bin/env bash
# README's "Install and use", steps 1 to 4, tried as a newcomer would on a Debian 12 with nothing
# but the Swift toolchain: a minimal chroot (debootstrap), this machine's toolchain bound in
# read-only, and only the libraries the toolchain itself needs to run. It checks that the build
# fails without step 1, naming the step, and that steps 1 to 4 then work as written. Needs root
# and the network (debootstrap, apt-get); by hand, not in CI (about 5 minutes, most of it the
# release build).
#
#   sudo Scripts/install-from-nothing.sh [CHROOT_DIR]     (default /tmp/babydash-install-chroot)
set -euo pipefail
cd "$(dirname "$0")/.."
root=${1:-/tmp/babydash-install-chroot}
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")  # …/usr
[ "$(id -u)" = 0 ] || { echo "install-from-nothing: needs root (debootstrap, chroot)" >&2; exit 77; }
command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
[ -d "$root/usr" ] || debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >/dev/null
mkdir -p "$root/opt/swift"
mount --bind "$(dirname "$toolchain")" "$root/opt/swift" && mount -o remount,bind,ro "$root/opt/swift"
mount -t proc proc "$root/proc"
trap 'umount "$root/opt/swift" "$root/proc"' EXIT
cp /etc/resolv.conf "$root/etc/"
# What the toolchain needs to run, and nothing of README's step 1.
chroot "$root" sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends binutils libc6-dev libgcc-12-dev libstdc++-12-dev libcurl4 libxml2 libedit2 libncurses6 libsqlite3-0 libpython3.11 tzdata >/dev/null &&
  DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq libsqlite3-dev zlib1g-dev >/dev/null 2>&1; true'
rm -rf "$root/root/BabyDashboard" "$root/root/.local"
mkdir -p "$root/root/BabyDashboard"
git ls-files | tar cf - -T - | tar xf - -C "$root/root/BabyDashboard"
in_root() { chroot "$root" env PATH=/opt/swift/usr/bin:/root/.local/bin:/usr/bin:/bin HOME=/root sh -c "$1"; }
if in_root 'cd /root/BabyDashboard && swift build -c release --product babydash' >"$root/without.log" 2>&1; then
  echo "install-from-nothing: the build passed without README's step 1: the step or this test is wrong"; exit 1
fi
grep -q "install the system packages first (README, Install step 1)" "$root/without.log" ||
  { tail -20 "$root/without.log"; echo "install-from-nothing: without step 1 the build failed, but not naming the step"; exit 1; }
echo "install-from-nothing: without step 1, the build stops and names it"
in_root 'DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libsqlite3-dev zlib1g-dev >/dev/null 2>&1'  # step 1 (as root: no sudo)
in_root 'cd /root/BabyDashboard && swift build -c release --product babydash >/dev/null 2>&1 &&
  mkdir -p ~/.local/bin && install -m 0755 .build/release/babydash ~/.local/bin/babydash && cd / &&
  babydash baby add Mia >/dev/null && babydash feed start Mia >/dev/null && babydash feed finish Mia --amount 120ml >/dev/null &&
  babydash diaper Mia pee >/dev/null && babydash status | grep -q "120 mL" &&
  test -d /root/.local/share/group.sungdoo.babyDashboard/BabyDashboard.store'
echo "install-from-nothing: README steps 1 to 4 work as written on a minimal Debian 12"
