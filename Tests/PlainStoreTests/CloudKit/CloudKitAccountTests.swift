import Foundation
import PlainStoreTesting
import Testing

@testable import PlainStore

/// Account changes and zone deletions never delete the family's change files: signed out, the
/// store works and its changes wait; another account is never merged in; a deleted zone is made
/// again from what the phone holds, unless the user purged it.
@Suite struct CloudKitAccountTests {
  @Test func signOutKeepsEveryFileAndTheChangesMadeMeanwhileGoAtTheNextSignIn() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let (one, device) = try family.openOnItsOwnDevice()
    try one.add(1, "Mia")
    try one.sync()
    device.signOut()
    try one.add(2, "Noah")
    try one.sync()
    let status = try #require(try one.syncStatus())
    #expect(status.carrier == .unavailable(.signedOut))
    #expect(status.outbox.count == 1, "the change made while signed out waits on the phone")
    #expect(family.cloud.recordNames(of: "family").count == 2)
    #expect(try one.names() == ["Mia", "Noah"])

    device.signIn("family")
    try one.sync()
    #expect(try one.syncStatus()?.carrier == .available)
    #expect(try one.syncStatus()?.outbox == [])
    #expect(try family.joined(2).names() == ["Mia", "Noah"])
  }

  @Test func signInSendsWhatWasWrittenBeforeIt() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let device = family.cloud.device(signedInAs: nil)
    let one = try family.open(1, device: device)
    try one.add(1, "Mia")
    try one.sync()
    #expect(try one.syncStatus()?.carrier == .unavailable(.signedOut))
    device.signIn("family")
    try one.sync()
    #expect(try family.joined(2).names() == ["Mia"])
  }

  @Test func switchAccountsNeitherSendsToNorMergesTheOtherAccountsZone() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let (one, device) = try family.openOnItsOwnDevice()
    try one.add(1, "Mia")
    try one.sync()
    let neighbour = try family.open(3, account: "neighbour")
    try neighbour.add(3, "Leo")
    try neighbour.sync()

    device.switchAccount(to: "neighbour")
    try one.add(2, "Noah")
    try one.sync()
    #expect(try one.syncStatus()?.carrier == .accountChanged)
    #expect(try one.names() == ["Mia", "Noah"], "nothing of the other account's")
    #expect(family.cloud.recordNames(of: "neighbour").allSatisfy { $0.hasPrefix(testDevice(0xc3).text) }, "nothing sent to it")

    device.switchAccount(to: "family")
    try one.sync()
    #expect(try family.joined(2).names() == ["Mia", "Noah"])
    #expect(try one.names() == ["Mia", "Noah"])
  }

  @Test func anAccountThatNeedsAttentionIsSaidInWordsAndNothingTravels() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let (one, device) = try family.openOnItsOwnDevice()
    try one.add(1, "Mia")
    device.setStatus(.temporarilyUnavailable)
    try one.sync()
    #expect(try one.syncStatus()?.carrierNote == CloudCondition.accountUnavailable.words)
    #expect(family.cloud.recordNames(of: "family").isEmpty)
    device.setStatus(nil)
    try one.sync()
    #expect(family.cloud.recordNames(of: "family").count == 2)
  }

  /// `deleted` (this program deleted the zone) and `encryptedDataReset` (per Apple's header:
  /// re-upload to minimise loss): the zone is made again from every file the phone holds.
  @Test(arguments: [SimulatedCloudKit.ZoneDeletionReason.deleted, .encryptedDataReset])
  func aZoneDeletedIsMadeAgainFromEveryFileThePhoneHolds(_ reason: SimulatedCloudKit.ZoneDeletionReason) throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let (one, _) = try family.pairHoldingMiaAndNoah()
    let files = try family.files(1)
    family.cloud.deleteZone(of: "family", reason: reason)
    try one.sync()
    #expect(try family.files(1) == files, "nothing deleted here")
    #expect(family.cloud.recordNames(of: "family").count == 4, "both phones' files, from phone 1")
    #expect(try family.joined(3).names() == ["Mia", "Noah"])
  }

  /// `purged`: the user deleted the app's data from iCloud; sending it again would undo that.
  @Test func aZonePurgedStopsSendingSaysSoAndKeepsEveryFile() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let (one, device) = try family.openOnItsOwnDevice()
    try one.add(1, "Mia")
    try one.sync()
    let files = try family.files(1)
    family.cloud.deleteZone(of: "family", reason: .purged)
    try one.add(2, "Noah")
    try one.sync()
    #expect(family.cloud.recordNames(of: "family").isEmpty)
    #expect(try one.syncStatus()?.carrierNote == CloudCondition.zonePurged.words)
    #expect(try family.files(1).count == files.count + 1, "every file kept, the new change too")
    #expect(try one.names() == ["Mia", "Noah"])

    device.signOut()
    device.signIn("family")  // the user turns iCloud for the app on again
    try one.sync()
    #expect(family.cloud.recordNames(of: "family").count == 3)
    #expect(try one.syncStatus()?.carrierNote == nil)
  }
}
