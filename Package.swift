// swift-tools-version:6.2
// 6.2: the library uses SendableMetatype (SchemaMigration.transformProperty), which 6.0 and 6.1 lack.
import PackageDescription

let package = Package(
  name: "BabyDashboard",
  platforms: [.macOS(.v15), .iOS(.v18), .watchOS(.v11), .tvOS(.v18)],
  products: [
    .library(name: "PlainStore", targets: ["PlainStore"]),
    .library(name: "BabyDashboard", targets: ["BabyDashboard"]),
    .library(name: "BabyDashboardText", targets: ["BabyDashboardText"]),
    .library(name: "BabyDashboardFixtures", targets: ["BabyDashboardFixtures"]),
    .library(name: "BabyDashboardPreviews", targets: ["BabyDashboardPreviews"]),
    // For tests only, like swift-log's InMemoryLogging: no app or tool ships it.
    .library(name: "BabyDashboardTesting", targets: ["BabyDashboardTesting"]),
    // Simulated iCloud carriers for any app's tests and previews (SimulatedCloudKit).
    .library(name: "PlainStoreTesting", targets: ["PlainStoreTesting"]),
    .executable(name: "babydash", targets: ["babydash"]),
    .executable(name: "babydash-bench", targets: ["babydash-bench"]),
  ],
  dependencies: [],
  targets: [
    // Libraries
    // The engine: knows no babies.
    .target(name: "PlainStore"),
    // Simulated carriers (CloudKit) over the engine's package seams: tests and previews only.
    .target(name: "PlainStoreTesting", dependencies: ["PlainStore"]),
    // The domain: entities, tracker, importers, screen models. Knows no rendering.
    .target(name: "BabyDashboard", dependencies: ["PlainStore", "CSQLite", "CZlib"]),
    // The text UI: every screen's renderer and the one format of times, durations and amounts.
    .target(name: "BabyDashboardText", dependencies: ["PlainStore", "BabyDashboard"]),
    // Scenarios, fixture builders and in-memory stores: what previews render and tests seed.
    .target(name: "BabyDashboardFixtures", dependencies: ["PlainStore", "BabyDashboard", "BabyDashboardText"]),
    // The preview catalog and its record/check (Previews/ on disk).
    .target(name: "BabyDashboardPreviews", dependencies: ["PlainStore", "BabyDashboard", "BabyDashboardText", "BabyDashboardFixtures"]),
    // The testing product: the temporary container and the tests' shared helpers.
    .target(name: "BabyDashboardTesting", dependencies: ["PlainStore", "BabyDashboard", "BabyDashboardText", "BabyDashboardFixtures"]),

    // The system's SQLite and zlib (in the Apple SDKs; libsqlite3-dev and zlib1g-dev on Linux),
    // for reading the SwiftData store the legacy importer migrates from. No package dependency.
    .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
    .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),

    // Tools
    // The one small argument parser of every executable: typed options, help from the declarations.
    .target(name: "ArgumentParsing", path: "Sources/ArgumentParsing"),
    .executableTarget(name: "babydash", dependencies: ["ArgumentParsing", "PlainStore", "BabyDashboard", "BabyDashboardText", "BabyDashboardFixtures", "BabyDashboardPreviews"]),
    .executableTarget(name: "babydash-bench", dependencies: ["ArgumentParsing", "PlainStore", "BabyDashboard", "BabyDashboardFixtures", "BabyDashboardPreviews"]),
    // Test-only: a writer process that the multi-process and crash tests start and kill.
    .executableTarget(name: "plainstore-stress", dependencies: ["ArgumentParsing", "PlainStore", "PlainStoreTesting"]),

    // Test support: builds SwiftData-shaped SQLite stores with the SQLite C API, for the tests only.
    .target(
      name: "SwiftDataStoreBuilder", dependencies: ["BabyDashboard", "CSQLite", "CZlib"], path: "Tests/SwiftDataStoreBuilder"),

    // Tests
    .testTarget(name: "ArgumentParsingTests", dependencies: ["ArgumentParsing"]),
    .testTarget(name: "PlainStoreTests", dependencies: ["PlainStore", "PlainStoreTesting", "BabyDashboard", "BabyDashboardTesting", "plainstore-stress"]),
    .testTarget(
      name: "BabyDashboardTests",
      dependencies: ["PlainStore", "PlainStoreTesting", "BabyDashboard", "BabyDashboardFixtures", "BabyDashboardTesting", "SwiftDataStoreBuilder"]),
    .testTarget(name: "BabyDashboardTextTests", dependencies: ["BabyDashboardText", "BabyDashboardFixtures"]),
    .testTarget(
      name: "BabyDashboardPreviewsTests",
      dependencies: ["PlainStore", "BabyDashboard", "BabyDashboardFixtures", "BabyDashboardPreviews", "BabyDashboardTesting"]),
    .testTarget(
      name: "BabydashTests",
      dependencies: [
        "PlainStore", "BabyDashboard", "BabyDashboardText", "BabyDashboardFixtures", "BabyDashboardPreviews", "BabyDashboardTesting",
        "ArgumentParsing", "babydash", "SwiftDataStoreBuilder",
      ]),
    // The benchmark's arithmetic only (parsing, per-pair ratios, the table): timings stay out of tests.
    .testTarget(name: "BabydashBenchTests", dependencies: ["ArgumentParsing", "babydash-bench"]),
  ],
  swiftLanguageModes: [.v6]
)
