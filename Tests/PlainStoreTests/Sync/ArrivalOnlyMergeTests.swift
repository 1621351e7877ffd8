import Foundation
import Testing

@testable import PlainStore

/// Which road a merge takes: the arrived files folded onto the objects they touch, or every
/// file folded again. Both give one answer (DifferentialSyncTests holds them to it); these
/// check that each is taken where it costs less.
@Suite struct ArrivalOnlyMergeTests {
  /// Two devices of one family sharing one sync folder, as a sync engine makes it look.
  struct Family {
    let scratch: ScratchFolder
    var syncFolder: URL { scratch.url.appendingPathComponent("sync") }

    init() throws { scratch = try ScratchFolder() }

    func open(_ name: String, device: Int) throws -> StoreContainer {
      let options = StoreOptions(
        author: name, clock: Sample.fixedClock, watchesOtherProcesses: false, syncFolder: syncFolder,
        deviceID: String(format: "%032x", device))
      return try StoreContainer.file(at: scratch.url.appendingPathComponent("\(name).store"), schema: TestSchema.v1, options: options)
    }
  }

  func insertOwners(_ numbers: ClosedRange<Int>, into container: StoreContainer, eachSaved: Bool) throws {
    let context = container.newBackgroundContext()
    for number in numbers {
      context.insert(Owner(id: Sample.id(number), name: "Owner \(number)"))
      if eachSaved { try context.save() }
    }
    try context.save()
  }

  @Test func aPhoneJoiningItsFamilyFoldsEveryFileInOnePass() throws {
    let family = try Family()
    defer { family.scratch.remove() }
    try insertOwners(1...5, into: try family.open("writer", device: 1), eachSaved: true)
    let joined = try family.open("reader", device: 2)
    #expect(joined.statistics.changeFilesMerged == 5)
    #expect(joined.statistics.fullFolds == 1)
    #expect(joined.statistics.arrivalOnlyMerges == 0)
    #expect(try joined.newBackgroundContext().fetchCount(FetchDescriptor<Owner>()) == 5)
  }

  @Test func aChangeThatComesAfterEverythingFoldedIsFoldedAlone() throws {
    let family = try Family()
    defer { family.scratch.remove() }
    let writer = try family.open("writer", device: 1)
    try insertOwners(1...5, into: writer, eachSaved: true)
    let reader = try family.open("reader", device: 2)
    try insertOwners(6...6, into: writer, eachSaved: false)
    try reader.sync()
    #expect(reader.statistics.arrivalOnlyMerges == 1)
    #expect(reader.statistics.fullFolds == 1, "the join's alone")
    #expect(try reader.newBackgroundContext().fetch(FetchDescriptor<Owner>(sortBy: [SortDescriptor(\.name)])).map(\.name).last == "Owner 6")
  }

  @Test func arrivalsThatRivalTheCacheInSizeTakeTheWholeFold() throws {
    let family = try Family()
    defer { family.scratch.remove() }
    let writer = try family.open("writer", device: 1)
    try insertOwners(1...5, into: writer, eachSaved: true)
    let reader = try family.open("reader", device: 2)
    try insertOwners(6...1_006, into: writer, eachSaved: false)  // one save of 1,001 objects
    try reader.sync()
    #expect(reader.statistics.arrivalOnlyMerges == 0)
    #expect(reader.statistics.fullFolds == 2)
    #expect(try reader.newBackgroundContext().fetchCount(FetchDescriptor<Owner>()) == 1_006)
  }

  @Test func theRoadFollowsHowManyObjectsArriveAgainstHowManyTheCacheHolds() {
    #expect(StoreCoordinator.isFewerThanAFold(arrived: 1_000, cached: 0))
    #expect(!StoreCoordinator.isFewerThanAFold(arrived: 1_001, cached: 0))
    #expect(StoreCoordinator.isFewerThanAFold(arrived: 25_000, cached: 100_000))
    #expect(!StoreCoordinator.isFewerThanAFold(arrived: 25_001, cached: 100_000))
  }
}
