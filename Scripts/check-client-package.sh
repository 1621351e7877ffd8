#!/usr/bin/env bash
# Builds and tests Tests/ClientPackage: an app's own package that depends on this repository by
# path and ports the seed's screens onto live queries (issue 15's "done when"). A second build
# of PlainStore and BabyDashboard, so it runs here rather than inside `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${CLIENT_PACKAGE_SCRATCH:-$PWD/.build/client-package}"
swift build --package-path Tests/ClientPackage --scratch-path "$scratch" --build-tests
swift test --package-path Tests/ClientPackage --scratch-path "$scratch" --skip-build
