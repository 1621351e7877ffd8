import Foundation
import PlainStore
import Testing

@Suite struct ContainerTests {
  let owner = Owner(id: Sample.id(1), name: "Mia", note: "first")
  var event: Event { Event(uuid: Sample.id(2), ownerID: owner.id, at: Sample.epoch, title: "feed", amount: 120.5) }

  @Test func inMemoryStoreRoundTripsObjects() throws {
    let container = StoreContainer.inMemory(schema: TestSchema.v1, options: Sample.options)
    let context = container.newBackgroundContext()
    context.insert(owner)
    context.insert(event)
    try context.save()
    let other = container.newBackgroundContext()
    #expect(try other.fetch(FetchDescriptor<Owner>()) == [owner])
    #expect(try other.object(Event.self, id: event.id) == event)
    #expect(container.directory == nil)
  }

  @Test func temporaryStoreRoundTripsAndReopens() throws {
    let container = try StoreContainer.temporary(schema: TestSchema.v1, options: Sample.options)
    defer { try? container.destroy() }
    let context = container.newBackgroundContext()
    context.insert(owner)
    context.insert(event)
    try context.save()
    let reopened = try StoreContainer.file(at: container.directory!, schema: TestSchema.v1)
    let reader = reopened.newBackgroundContext()
    #expect(try reader.fetch(FetchDescriptor<Owner>()) == [owner])
    #expect(try reader.fetch(FetchDescriptor<Event>()) == [event])
  }

  @Test func fileStoreRoundTripsAndReopensAfterCompaction() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreTests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("Family.store")
    do {
      let container = try StoreContainer.file(at: url, schema: TestSchema.v1, options: Sample.options)
      let context = container.newBackgroundContext()
      context.insert(owner)
      context.insert(event)
      try context.save()
      try container.compact()
    }
    let reopened = try StoreContainer.file(at: url, schema: TestSchema.v1)
    let context = reopened.newBackgroundContext()
    #expect(try context.fetch(FetchDescriptor<Owner>()) == [owner])
    #expect(try context.fetch(FetchDescriptor<Event>()) == [event])
    #expect(FileManager.default.fileExists(atPath: url.appendingPathComponent("local/segments/Event.2026-01.00000001.json").path))
  }

  @Test func temporaryStoreTeardownRemovesItsFolder() throws {
    let container = try StoreContainer.temporary(schema: TestSchema.v1)
    let folder = container.directory!
    #expect(FileManager.default.fileExists(atPath: folder.path))
    try container.destroy()
    #expect(!FileManager.default.fileExists(atPath: folder.path))
  }

  @Test func datesRoundTripExactly() throws {
    let odd = Date(timeIntervalSinceReferenceDate: 786_789_012.123_456_789)
    let tiny = Date(timeIntervalSinceReferenceDate: 786_789_012.000_001_5)
    let early = Date(timeIntervalSinceReferenceDate: -31_234_567.987_654_321)
    try withTemporaryStore { container in
      let context = container.newBackgroundContext()
      for (n, date) in [odd, tiny, early].enumerated() {
        context.insert(Event(uuid: Sample.id(10 + n), ownerID: nil, at: date, title: "t\(n)", amount: nil))
      }
      try context.save()
      try container.compact()
      let reopened = try StoreContainer.file(at: container.directory!, schema: TestSchema.v1)
      let dates = try reopened.newBackgroundContext().fetch(FetchDescriptor<Event>(sortBy: [SortDescriptor(\.title)])).map(\.at)
      #expect(dates == [odd, tiny, early])
    }
  }

  @Test func sameStateGivesSameBytes() throws {
    func build() throws -> [String: Data] {
      try withTemporaryStore { container in
        for round in 0..<3 {
          let context = container.newBackgroundContext()
          for n in 0..<20 {
            context.insert(
              Event(uuid: Sample.id(round * 100 + n), ownerID: nil, at: Sample.date(days: Double(n * 11)), title: "e\(n)", amount: Double(n)))
          }
          try context.save()
        }
        try container.compact()
        return try snapshotFiles(container.directory!)
      }
    }
    let first = try build()
    let second = try build()
    #expect(first.keys.sorted() == second.keys.sorted())
    #expect(first == second)
  }

  @Test func storeFolderIsPrivateAndFilesStayPrivate() throws {
    try withTemporaryStore { container in
      let context = container.newBackgroundContext()
      context.insert(owner)
      try context.save()
      try container.compact()
      let folder = container.directory!
      let mode = { (path: String) in
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? -1
      }
      for name in ["", "local", "local/log", "local/segments", "changes", "changes/\(Sample.device)"] {
        #expect(mode(folder.appendingPathComponent(name).path) == 0o700, "\(name)")
      }
      for name in [
        "store.json", "device-id", "local/manifest.json", "local/log/00000001.log", "local/segments/Owner.all.00000001.json", "local/device-id",
        "changes/\(Sample.device)/000000000001.json", "changes/\(Sample.device)/device.json",
      ] {
        #expect(mode(folder.appendingPathComponent(name).path) == 0o600, "\(name)")
      }
    }
  }

  @Test func plantedSymbolicLinkIsRefusedNotFollowed() throws {
    try withTemporaryStore { container in
      let context = container.newBackgroundContext()
      context.insert(owner)
      try context.save()
      let folder = container.directory!
      let target = folder.deletingLastPathComponent().appendingPathComponent("elsewhere-\(UUID().uuidString).json")
      defer { try? FileManager.default.removeItem(at: target) }
      try Data("{}".utf8).write(to: target)
      // In place of the stream the next commit appends to.
      try FileManager.default.removeItem(at: folder.appendingPathComponent("local/log/00000001.log"))
      try FileManager.default.createSymbolicLink(
        at: folder.appendingPathComponent("local/log/00000001.log"), withDestinationURL: target)
      context.insert(Owner(id: Sample.id(9), name: "Noah"))
      #expect {
        try context.save()
      } throws: { error in
        (error as? StoreError)?.code == .symbolicLink && (error as? StoreError)?.path.hasSuffix("local/log/00000001.log") == true
      }
      #expect(try Data(contentsOf: target) == Data("{}".utf8))
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("changes/\(Sample.device)/000000000002.json").path))
    }
  }
}
