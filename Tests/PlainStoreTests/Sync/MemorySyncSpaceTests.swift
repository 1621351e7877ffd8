import Foundation
import PlainStore
import Testing

/// In-memory containers that sync through a ``MemorySyncSpace``: two phones merging with no
/// disk, every rule of a file store's sync running.
@Suite struct MemorySyncSpaceTests {
  let space = MemorySyncSpace()

  /// An in-memory phone of the space, with a fixed device id so that its files are the same
  /// bytes every run.
  func phone(_ number: Int, carrier: Bool = true) -> StoreContainer {
    var options = StoreOptions(author: "phone \(number)", clock: Sample.fixedClock, deviceID: String(format: "%032x", 0xd000 + number))
    if carrier { options.carrier = .memory(space) }
    return StoreContainer.inMemory(schema: TestSchema.v1, options: options)
  }

  /// Each syncs in turn, then the first again: what either wrote has reached both.
  func syncAll(_ phones: StoreContainer...) throws {
    for phone in phones { try phone.sync() }
    for phone in phones { try phone.sync() }
  }

  func owners(_ container: StoreContainer) throws -> [Owner] {
    try container.newBackgroundContext().fetch(FetchDescriptor<Owner>(sortBy: [SortDescriptor(\.name)]))
  }

  @Test func twoInMemoryContainersConvergeThroughTheSpace() throws {
    let (a, b) = (phone(1), phone(2))
    let mia = Owner(id: Sample.id(1), name: "Mia")
    let noah = Owner(id: Sample.id(2), name: "Noah")
    try save(a) { $0.insert(mia) }
    try save(b) { $0.insert(noah) }
    try syncAll(a, b)
    #expect(try owners(a) == [mia, noah])
    #expect(try owners(b) == [mia, noah])
  }

  @Test func theInMemoryStoreWritesChangeFilesTheSpaceCarries() throws {
    let a = phone(1)
    #expect(space.fileNames.isEmpty)
    try save(a) { $0.insert(Owner(id: Sample.id(1), name: "Mia")) }
    #expect(space.fileNames.isEmpty, "nothing moves between syncs")
    try a.sync()
    let device = String(format: "%032x", 0xd001)
    let changeFiles = space.fileNames.filter { $0.hasPrefix(device + "/") && $0.hasSuffix(".json") && !$0.hasSuffix("device.json") }
    #expect(!changeFiles.isEmpty, "\(space.fileNames)")
    let bytes = try #require(space.contents(of: changeFiles[0]))
    #expect(String(decoding: bytes, as: UTF8.self).contains("Mia"))
  }

  /// Each ``SyncTrigger`` does what its moment is for: a push fetches and sends nothing, a save
  /// sends and fetches nothing, a foreground does both.
  @Test func aPushOnlyFetchesASaveOnlySendsAForegroundDoesBoth() throws {
    let (a, b) = (phone(1), phone(2))
    let mia = Owner(id: Sample.id(1), name: "Mia")
    let noah = Owner(id: Sample.id(2), name: "Noah")
    try save(a) { $0.insert(mia) }
    try a.sync(.push)
    #expect(space.fileNames.isEmpty, "a push sends nothing")
    try a.sync(.save)
    #expect(!space.fileNames.isEmpty, "a save sends")
    try save(b) { $0.insert(noah) }
    try b.sync(.save)
    #expect(try owners(b) == [noah], "a save fetches nothing")
    try b.sync(.push)
    #expect(try owners(b) == [mia, noah], "a push fetches")
    try a.sync(.foreground)
    #expect(try owners(a) == [mia, noah], "a foreground fetches")
    let sent = space.fileNames
    try save(a) { $0.delete(Owner.self, id: noah.id) }
    try a.sync(.foreground)
    #expect(space.fileNames != sent, "and sends")
  }

  @Test func aUniqueKeyClashMergesIntoOneObjectOnBothPhones() throws {
    let (a, b) = (phone(1), phone(2))
    try save(a) { $0.insert(Owner(id: Sample.id(1), name: "Mia", note: "from a")) }
    try save(b) { $0.insert(Owner(id: Sample.id(2), name: "Mia", note: "from b")) }
    try syncAll(a, b)
    let onA = try owners(a)
    #expect(onA.count == 1)
    #expect(onA == (try owners(b)))
  }

  @Test func aDeleteWinsOverAnEditMadeMeanwhile() throws {
    let (a, b) = (phone(1), phone(2))
    let mia = Owner(id: Sample.id(1), name: "Mia")
    try save(a) { $0.insert(mia) }
    try syncAll(a, b)
    try save(a) { $0.delete(Owner.self, id: mia.id) }
    try save(b) {
      var edited = mia
      edited.note = "edited meanwhile"
      $0.insert(edited)
    }
    try syncAll(a, b)
    #expect(try owners(a).isEmpty)
    #expect(try owners(b).isEmpty)
  }

  @Test func anInMemoryStoreKeepsItsHistoryOfSavesAndMerges() throws {
    let (a, b) = (phone(1), phone(2))
    try save(a) { $0.insert(Owner(id: Sample.id(1), name: "Mia")) }
    try save(b) { $0.insert(Owner(id: Sample.id(2), name: "Noah")) }
    try syncAll(a, b)
    let history = try a.history(after: nil)
    #expect(history.map(\.author) == ["phone 1", "sync"])
    let merged = try #require(history.last)
    #expect(try a.history(after: history[0].token).map(\.token) == [merged.token])
  }

  @Test func anInMemoryStoreTouchesNoDisk() throws {
    let (a, b) = (phone(1), phone(2))
    try save(a) { $0.insert(Owner(id: Sample.id(1), name: "Mia")) }
    try syncAll(a, b)
    _ = try a.compactChanges()
    #expect(!FileManager.default.fileExists(atPath: "/PlainStore.memory"), "the virtual root is made on disk")
  }

  @Test func containersWithoutTheCarrierShareNothing() throws {
    let (a, b) = (phone(1, carrier: false), phone(2, carrier: false))
    try save(a) { $0.insert(Owner(id: Sample.id(1), name: "Mia")) }
    try syncAll(a, b)
    #expect(try owners(b).isEmpty)
    #expect(space.fileNames.isEmpty)
  }

  private func save(_ container: StoreContainer, _ body: (StoreContext) -> Void) throws {
    let context = container.newBackgroundContext()
    body(context)
    try context.save()
  }
}
