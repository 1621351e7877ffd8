// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "BabyDashboard",
  platforms: [.macOS(.v15), .iOS(.v18), .watchOS(.v11), .tvOS(.v18)],
  products: [
    .library(name: "PlainStore", targets: ["PlainStore"]),
    .library(name: "BabyDashboard", targets: ["BabyDashboard"]),
    .library(name: "BabyDashboardPreviews", targets: ["BabyDashboardPreviews"]),
    .executable(name: "babydash", targets: ["babydash"]),
    .executable(name: "babydash-bench", targets: ["babydash-bench"]),
  ],
  dependencies: [],
  targets: [
    // Libraries
    .target(name: "PlainStore"),
    .target(name: "BabyDashboard", dependencies: ["PlainStore", "CSQLite", "CZlib"]),

    // The system's SQLite and zlib (in the Apple SDKs; libsqlite3-dev and zlib1g-dev on Linux),
    // for reading the SwiftData store the legacy importer migrates from. No package dependency.
    .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
    .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
    .target(name: "BabyDashboardPreviews", dependencies: ["PlainStore", "BabyDashboard"]),

    // Tools
    .executableTarget(name: "babydash", dependencies: ["PlainStore", "BabyDashboard", "BabyDashboardPreviews"]),
    .executableTarget(name: "babydash-bench", dependencies: ["PlainStore", "BabyDashboard", "BabyDashboardPreviews"]),
    // Test-only: a writer process that the multi-process and crash tests start and kill.
    .executableTarget(name: "plainstore-stress", dependencies: ["PlainStore"]),

    // Test support: builds SwiftData-shaped SQLite stores with the SQLite C API, for the tests only.
    .target(
      name: "SwiftDataStoreBuilder", dependencies: ["BabyDashboard", "CSQLite", "CZlib"], path: "Tests/SwiftDataStoreBuilder"),

    // Tests
    .testTarget(name: "PlainStoreTests", dependencies: ["PlainStore", "plainstore-stress"]),
    .testTarget(
      name: "BabyDashboardTests", dependencies: ["PlainStore", "BabyDashboard", "BabyDashboardPreviews", "SwiftDataStoreBuilder"]),
    .testTarget(name: "BabyDashboardPreviewsTests", dependencies: ["BabyDashboard", "BabyDashboardPreviews", "babydash"]),
    .testTarget(name: "BabydashTests", dependencies: ["BabyDashboard", "BabyDashboardPreviews", "babydash", "SwiftDataStoreBuilder"]),
    // The benchmark's arithmetic only (parsing, per-pair ratios, the table): timings stay out of tests.
    .testTarget(name: "BabydashBenchTests", dependencies: ["babydash-bench"]),
  ],
  swiftLanguageModes: [.v6]
)
