import Foundation
import PlainStoreTesting
import Testing

@testable import PlainStore

/// The second parent (issue #56, item 7): the owner's zone shared whole with the other parent's
/// account, whose phones sync through their shared database with the same carrier. Accepting,
/// leaving and the owner stopping the share are reported in `syncStatus()` and lose nothing:
/// every change file stays on every phone, and a phone out of the share carries its changes
/// through its own account's zone.
@Suite struct CloudKitSharingTests {
  /// Mum's phone (1) and Dad's (2), each on its own account with a baby of its own, synced once.
  private static func parents(_ family: CloudFamily) throws -> (mum: StoreContainer, dad: StoreContainer, dadsPhone: SimulatedCloudKit.Device) {
    let dadsPhone = family.cloud.device(signedInAs: "dad")
    let (mum, dad) = (try family.open(1, account: "mum"), try family.open(2, device: dadsPhone))
    try mum.add(1, "Mia")
    try dad.add(2, "Noah")
    try syncInTurn(mum, dad)
    return (mum, dad, dadsPhone)
  }

  /// The two parents after Dad accepted Mum's share and both synced: both show both babies.
  private static func sharing(_ family: CloudFamily) throws -> (mum: StoreContainer, dad: StoreContainer, dadsPhone: SimulatedCloudKit.Device) {
    let (mum, dad, dadsPhone) = try parents(family)
    family.cloud.share("mum", with: "dad")
    dadsPhone.acceptShare(from: "mum")
    try syncInTurn(dad, mum)
    return (mum, dad, dadsPhone)
  }

  private static func records(_ family: CloudFamily, _ account: String, of phone: Int) -> Int {
    family.cloud.recordNames(of: account).filter { $0.hasPrefix(testDevice(0xc0 + phone).text) }.count
  }

  @Test func theSecondParentWhoAcceptsSyncsThroughTheOwnersZoneAndBringsItsOwnChanges() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let (mum, dad, dadsPhone) = try Self.parents(family)
    family.cloud.share("mum", with: "dad")
    try syncInTurn(dad, mum)
    #expect(try mum.names() == ["Mia"], "a share not accepted carries nothing")
    #expect(try dad.syncStatus()?.carrierNote == nil)

    dadsPhone.acceptShare(from: "mum")
    try syncInTurn(dad, mum)
    #expect(try mum.names() == ["Mia", "Noah"])
    #expect(try dad.names() == ["Mia", "Noah"])
    #expect(try dad.syncStatus()?.carrierNote == "syncing the family mum shares with this account")
    #expect(try mum.syncStatus()?.carrierNote == "this family is shared with dad")

    try dad.add(3, "Leo")
    try syncInTurn(dad, mum)
    #expect(try mum.names() == ["Leo", "Mia", "Noah"], "Dad's changes go to Mum's zone")
    #expect(Self.records(family, "dad", of: 2) == 2, "Dad's own zone holds what it held before, and no more")
    let ipad = try family.open(3, account: "dad")  // another device of Dad's account finds the share
    try ipad.sync()
    #expect(try ipad.names() == ["Leo", "Mia", "Noah"])
  }

  @Test func leavingKeepsEveryFileAndTheChangesMadeSinceGoThroughTheParticipantsOwnZone() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let (mum, dad, dadsPhone) = try Self.sharing(family)
    dadsPhone.leaveShare(of: "mum")
    try dad.add(3, "Leo")
    try syncInTurn(dad, mum)
    #expect(try dad.names() == ["Mia", "Noah", "Leo"].sorted(), "nothing of Mum's is taken from Dad's phone")
    #expect(try mum.names() == ["Mia", "Noah"], "Dad's change after leaving stays out of Mum's zone")
    #expect(try mum.syncStatus()?.carrierNote == nil, "Mum's zone is shared with no one now")
    #expect(
      try dad.syncStatus()?.carrierNote == "this account left the family mum shares; every change stays on this device, and this account's own iCloud carries them")
    #expect(try dad.syncStatus()?.outbox == [])
    #expect(try family.open(3, account: "dad").syncedNames() == ["Leo", "Mia", "Noah"], "Dad's own zone carries the family now")
  }

  @Test func theOwnerStoppingTheShareLosesNothingOnEitherPhone() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let (mum, dad, _) = try Self.sharing(family)
    try dad.add(3, "Leo")  // made before Dad's phone hears of it, never sent to Mum's zone
    family.cloud.stopSharing("mum")
    try mum.add(4, "Ava")
    try syncInTurn(mum, dad)
    #expect(try dad.names() == ["Leo", "Mia", "Noah"])
    #expect(try mum.names() == ["Ava", "Mia", "Noah"])
    #expect(try dad.syncStatus()?.carrierNote?.hasPrefix("mum stopped sharing the family; every change stays on this device") == true)
    #expect(try mum.syncStatus()?.carrierNote == nil)
    #expect(try family.open(3, account: "dad").syncedNames() == ["Leo", "Mia", "Noah"])
  }

  @Test func aSharedZoneGoneWithoutAWordEndsTheShareAtTheFirstRequest() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let (_, dad, _) = try Self.sharing(family)
    try dad.add(3, "Leo")
    family.cloud.loseZone(of: "mum")  // no event reaches Dad's phone: its request meets zoneNotFound
    try dad.sync()
    #expect(try dad.syncStatus()?.carrierNote?.hasPrefix("mum stopped sharing the family") == true)
    #expect(try dad.syncStatus()?.outbox == [])
    #expect(try family.open(3, account: "dad").syncedNames() == ["Leo", "Mia", "Noah"])
    #expect(family.cloud.recordNames(of: "mum").isEmpty, "no zone is made in the owner's place")
  }

  @Test func theShareGoesWithTheAccountAndComesBackWithIt() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let (mum, dad, dadsPhone) = try Self.sharing(family)
    dadsPhone.signOut()
    try dad.add(3, "Leo")
    try dad.sync()
    #expect(try dad.syncStatus()?.carrier == .unavailable(.signedOut))
    dadsPhone.signIn("dad")
    try syncInTurn(dad, mum)
    #expect(try mum.names() == ["Leo", "Mia", "Noah"], "what waited signed out reached Mum's zone")
    #expect(try dad.syncStatus()?.carrierNote == "syncing the family mum shares with this account")
  }

  @Test func aReopenedStoreKeepsSyncingTheSharedZone() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let (mum, _, dadsPhone) = try Self.sharing(family)
    let dad = try family.open(2, device: dadsPhone)  // its events taken by the store opened before
    try dad.add(3, "Leo")
    try syncInTurn(dad, mum)
    #expect(try mum.names() == ["Leo", "Mia", "Noah"])
  }

  @Test func anotherAccountNeitherSeesNorReachesTheSharedZone() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    _ = try Self.sharing(family)
    let neighbour = try family.open(3, account: "neighbour")
    try neighbour.add(5, "Zoe")
    try neighbour.sync()
    #expect(try neighbour.names() == ["Zoe"])
    #expect(family.cloud.recordNames(of: "mum").allSatisfy { !$0.hasPrefix(testDevice(0xc3).text) })
    let stranger = family.cloud.device(signedInAs: "neighbour")
    #expect(throws: CloudError(.zoneNotFound)) { try stranger.fetchChanges(in: .sharedBy(owner: "mum"), since: nil) }
  }
}

extension StoreContainer {
  /// The names after one sync: what this phone fetched.
  fileprivate func syncedNames() throws -> [String] {
    try sync()
    return try names()
  }
}
