import Foundation
import PlainStoreTesting
import Testing

@testable import PlainStore

/// Two phones of one account through the simulated CloudKit: what one saves, the other shows
/// after a `sync()` on each; another account sees none of it; the fetch writes each record once
/// however it is delivered.
@Suite struct CloudKitSyncTests {
  @Test func twoContainersOfOneAccountConverge() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let (one, two) = try family.pairHoldingMiaAndNoah()
    #expect(try one.names() == ["Mia", "Noah"])
    #expect(try two.names() == ["Mia", "Noah"])
    #expect(try family.files(1) == family.files(2), "the same files, byte for byte")
    let records = family.cloud.recordNames(of: "family")
    #expect(records.contains(testDevice(0xc1).text + "_000000000001.json"))
    #expect(records.contains(testDevice(0xc2).text + "_device.json"))
    #expect(try one.syncStatus()?.carrier == .available)
    #expect(try one.syncStatus()?.carrierNote == nil)
  }

  @Test func anotherAccountsContainersSeeNoneOfIt() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let (one, stranger) = (try family.open(1), try family.open(2, account: "neighbour"))
    try one.add(1, "Mia")
    try stranger.add(2, "Noah")
    try syncInTurn(one, stranger, one)
    #expect(try one.names() == ["Mia"])
    #expect(try stranger.names() == ["Noah"])
    #expect(family.cloud.recordNames(of: "neighbour").allSatisfy { $0.hasPrefix(testDevice(0xc2).text) })
    #expect(family.cloud.recordNames(of: "family").allSatisfy { $0.hasPrefix(testDevice(0xc1).text) })
  }

  @Test func manyFilesGoUpInRequestsOfAtMost400() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let one = try family.open(1)
    for number in 1...420 { try one.add(number, "Baby \(number)") }
    try one.sync()
    #expect(family.cloud.saveRequestSizes == [400, 21], "420 change files and device.json")
    let two = try family.open(2)
    try two.sync()
    #expect(try two.names().count == 420)
  }

  @Test func aFetchOfManyBatchesBringsEveryOne() throws {
    let family = try CloudFamily(cloud: SimulatedCloudKit(fetchBatchSize: 3))
    defer { family.remove() }
    let one = try family.open(1)
    for number in 1...10 { try one.add(number, "Baby \(number)") }
    try one.sync()
    let two = try family.open(2)
    try two.sync()
    #expect(try two.names().count == 10)
    #expect(try family.files(2) == family.files(1))
  }

  /// The fetched files are durable before the state that follows them is saved; a kill between
  /// the two leaves the older state, which fetches the same records again: nothing is lost and
  /// nothing written twice. Here the kill is the state file put back as it was before the sync.
  @Test func aKillBetweenTheFetchedFilesAndTheStateFetchesAgainWithNoLossAndNoDuplicate() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let (one, two) = try family.pair()
    try one.add(1, "Mia")
    try syncInTurn(one, two)
    let stateFile = family.store(2).appendingPathComponent("cloudkit-state.json")
    let before = try Data(contentsOf: stateFile)
    try one.add(2, "Noah")
    try syncInTurn(one, two)
    let fetched = try family.files(2)
    try before.write(to: stateFile)  // the kill: the files stayed, the state did not

    try two.sync()
    #expect(try family.files(2) == fetched, "no file written twice, no conflict copy")
    #expect(try two.names() == ["Mia", "Noah"])
    try one.add(3, "Leo")
    try syncInTurn(one, two)
    #expect(try two.names() == ["Leo", "Mia", "Noah"])
  }

  @Test(arguments: [SimulatedCloudKit.Delivery.twice, .outOfOrder, .late, .dropped])
  func aFetchDeliveredBadlyEndsWithEveryFileOnceAndNoConflictCopy(_ delivery: SimulatedCloudKit.Delivery) throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let (one, two) = try family.pair()
    for (number, name) in ["Mia", "Noah", "Leo"].enumerated() { try one.add(number + 1, name) }
    try one.sync()
    family.cloud.deliverNextFetch(delivery)
    try syncInTurn(two, two)
    #expect(try two.names() == ["Leo", "Mia", "Noah"])
    #expect(try family.files(2).keys.filter { $0.contains("conflict") }.isEmpty)
    #expect(try family.files(2) == family.files(1))
  }

  /// A record name is `<device>_<file>`; a record that names no file of a store (a path, a
  /// hidden name, another kind of file) is never written.
  @Test(arguments: ["../../etc/passwd", ".hidden.json", "notes.txt", "000000000001.json/x"])
  func aRecordNamingNoFileOfAStoreIsNeverWritten(_ file: String) throws {
    #expect(CloudRecordName.parse(testDevice(1).text + "_" + file) == nil)
    #expect(CloudRecordName.parse(testDevice(1).text + "_000000000001.json")?.file == "000000000001.json")
  }
}
