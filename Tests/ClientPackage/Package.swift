// swift-tools-version:6.0
import Foundation
import PackageDescription

// An app's own package, as an iOS developer moving BabyDashboard off SwiftData would write it:
// it depends on this repository by path and ports the seed's ContentView, HistoryView and
// HistoryEditView logic onto live queries, with no glue of its own. Built and tested by
// Scripts/check-client-package.sh (which .ci/run calls); not part of the main package.
//
// A path dependency's identity is the last component of its folder, which differs between
// clones: read it from where this package sits (two levels down in the repository).
let repository = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
  name: "ClientPackage",
  platforms: [.macOS(.v15), .iOS(.v18), .watchOS(.v11), .tvOS(.v18)],
  dependencies: [.package(path: repository.path)],
  targets: [
    .target(
      name: "ClientScreens",
      dependencies: [
        .product(name: "PlainStore", package: repository.lastPathComponent),
        .product(name: "BabyDashboard", package: repository.lastPathComponent),
      ]),
    // The fixtures product gives the tests an in-memory key-value store for the cache; the
    // testing product a simulated CloudKit, for two parents' phones.
    .testTarget(
      name: "ClientScreensTests",
      dependencies: [
        "ClientScreens", .product(name: "BabyDashboardFixtures", package: repository.lastPathComponent),
        .product(name: "PlainStoreTesting", package: repository.lastPathComponent),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
