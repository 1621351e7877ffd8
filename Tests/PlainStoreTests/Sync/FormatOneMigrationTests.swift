import BabyDashboardTesting
import Foundation
import Testing

@testable import PlainStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct FormatOneMigrationTests {
  func fetchAll(_ store: URL) throws -> [MultiProcessItem] {
    try StoreContainer.file(at: store, schema: MultiProcessItem.schema, options: StoreOptions(watchesOtherProcesses: false))
      .newBackgroundContext().fetch(FetchDescriptor<MultiProcessItem>(sortBy: [SortDescriptor(\.batch)]))
  }

  @Test func aFormatOneStoreMigratesInPlaceWithEveryObject() throws {
    let folder = MultiProcessFolder()
    defer { folder.remove() }
    let items = FormatOneStore.items(40)
    try FormatOneStore.write(items, to: folder.store)
    #expect(try fetchAll(folder.store) == items)
    let names = Set(try FileManager.default.contentsOfDirectory(atPath: folder.store.path))
    #expect(names.isSuperset(of: ["store.json", "changes", "local"]))
    #expect(names.isDisjoint(with: ["manifest.json", "segments", "log"]), "the old files go once the new ones are durable")
    #expect(try String(contentsOf: folder.store.appendingPathComponent("store.json"), encoding: .utf8).contains(#""formatVersion":2"#))
    #expect(try fetchAll(folder.store) == items, "and it opens again as format 2")
  }

  @Test func aDamagedFormatOneStoreIsRefusedAndLeftAsItWas() throws {
    let folder = MultiProcessFolder()
    defer { folder.remove() }
    try FormatOneStore.write(FormatOneStore.items(40), to: folder.store)
    let segments = folder.store.appendingPathComponent("segments")
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: segments.path).sorted().first)
    try Data("{\"formatVersion\":1,".utf8).write(to: segments.appendingPathComponent(name))
    let before = try snapshotFiles(folder.store)
    #expect(throws: StoreError.self) { _ = try fetchAll(folder.store) }
    #expect(try snapshotFiles(folder.store) == before)
  }

  /// SIGKILL at random moments of a format-1 store's migration (after the child's
  /// `phase migrate`): a store left at format 1 has every file of format 1 as it was, byte for
  /// byte (checked before anything opens it), and every time the store opens afterwards with
  /// every object (that open finishes an interrupted migration: that is what it checks).
  @Test func aMigrationKilledAtAnyMomentLosesNothing() async throws {
    let tests = self
    let (phases, failure) = try await onOwnThread { () throws -> (KillPhases, String?) in
      let folder = MultiProcessFolder()
      defer { folder.remove() }
      var random = SplitMix64(seed: 0x1F0_2F0)
      var phases = KillPhases()
      // The kills aim within a window that follows how long a migration takes here.
      var window: UInt64 = 20_000
      for round in 0..<Self.kills {
        try? FileManager.default.removeItem(at: folder.store)
        let items = FormatOneStore.items(200, seed: round)
        try FormatOneStore.write(items, to: folder.store)
        let original = Self.formatOneFiles(folder.store)
        let child = try MultiProcessChild(["open", folder.store.path])
        _ = child.waitForLine(startingWith: "phase migrate", timeout: .seconds(60))  // past start-up and the open's first reads
        usleep(UInt32(random.next() % window))
        child.kill()
        let phase = phases.record(child, killed: child.waitForExit() == -SIGKILL)
        window = phase == "migrate" ? min(window * 11 / 10, 200_000) : max(window * 3 / 4, 1_000)
        let header = try String(contentsOf: folder.store.appendingPathComponent("store.json"), encoding: .utf8)
        let left = Self.formatOneFiles(folder.store)
        if header.contains(#""formatVersion":1"#), left != original {
          let changed = Set(left.keys).union(original.keys).filter { left[$0] != original[$0] }.sorted()
          return (phases, "round \(round): killed in '\(phase)', the store is at format 1 but these files changed: \(changed)")
        }
        let found = try tests.fetchAll(folder.store)
        if found != items { return (phases, "round \(round): \(found.count) of \(items.count) objects after the kill") }
      }
      return (phases, nil)
    }
    #expect(failure == nil, "\(failure ?? "")")
    print("FormatOneMigrationTests: \(Self.kills) rounds, kills by phase: \(phases); every object present after each")
    #expect(phases.shortfalls(["migrate": Self.kills / 2]) == [], "\(phases)")
  }

  static let kills = 100

  /// The files format 1 has (not the new layout's changes/ and local/), with their bytes. Not
  /// the hidden temporary file of an atomic write that the kill interrupted (store.json's, at
  /// format 2, before its rename): no reader reads it, and the first commit removes it.
  static func formatOneFiles(_ store: URL) -> [String: Data] {
    var files: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(atPath: store.path) else { return [:] }
    // Format 2's own: its change files, its cache, its device id.
    for case let path as String in walker where !path.hasPrefix("changes") && !path.hasPrefix("local") && path != "device-id" {
      if isTemporary(path) { continue }
      if let data = try? Data(contentsOf: store.appendingPathComponent(path)) { files[path] = data }
    }
    return files
  }

  static func isTemporary(_ path: String) -> Bool {
    let name = (path as NSString).lastPathComponent
    return name.hasPrefix(".") && name.hasSuffix(".tmp")
  }
}
