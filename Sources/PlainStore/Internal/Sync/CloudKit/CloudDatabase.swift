import Foundation

/// What CKSyncEngine gives a carrier, and nothing more: the seam between ``CloudKitTransport``,
/// which holds every rule (what to send, where fetched records go, when the state is saved, what
/// each error means), and the engine behind it — Apple's (`AppleCloudKitService`, Apple platforms
/// only) or a simulated one (`PlainStoreTesting.SimulatedCloudKit`).
///
/// One custom zone, this account's own or one shared with it (``CloudZone``); records are
/// create-once files, so a carrier never edits one and never needs a change tag: a save is
/// always of a new record. Every call throws only ``CloudError``s.
package protocol CloudDatabase: Sendable {
  /// The account signed in on this device, as the engine sees it now.
  func account() -> CloudAccount
  /// What happened since the last call, oldest first: account changes (CKSyncEngine's
  /// `.accountChange`), deletions of the zone (`.fetchedDatabaseChanges`, with a reason), and
  /// shares accepted, ended or joined by others.
  func takeEvents() -> [CloudEvent]
  /// Creates this account's own zone; creating one that is there changes nothing.
  func createZone() throws
  /// Saves records as new in `zone`, all or none (the zone's atomic batch). A name the server
  /// holds comes back as `serverRecordChanged` with the server's record; failures of single
  /// records come as `partialFailure` with each one's error (the others `batchRequestFailed`).
  func save(_ records: [CloudRecord], in zone: CloudZone) throws
  /// Deletes records of `zone` by name, all or none (the zone's atomic batch): what a change
  /// compaction deleted here stops costing a joining phone its fetch. A name the server does not
  /// hold comes back as `unknownItem`, in `partialFailure` with each one's error (the others
  /// `batchRequestFailed`), as CKSyncEngine's failed record deletes.
  func delete(_ names: [String], in zone: CloudZone) throws
  /// One batch of `zone`'s changes after `state` (nil: from the beginning), with the engine
  /// state to persist once the batch's records are durable (`CKSyncEngine.State.Serialization`).
  /// A shared zone this account no longer shares is `zoneNotFound`.
  func fetchChanges(in zone: CloudZone, since state: Data?) throws -> CloudFetch
}

/// The zone a carrier syncs: this account's own, in the private database, or the one another
/// account (the other parent) shares with it whole (`CKShare(recordZoneID:)`), reached through
/// the shared database. Either holds the family's change files as the same records.
package enum CloudZone: Codable, Hashable, Sendable {
  case own
  case sharedBy(owner: String)
}

/// One record of the zone: one change file, snapshot or `device.json`, named after it.
package struct CloudRecord: Equatable, Sendable {
  /// The record name (``CloudRecordName``): ASCII, under 255 characters.
  package var name: String
  package var bytes: Data

  package init(name: String, bytes: Data) {
    self.name = name
    self.bytes = bytes
  }

  /// Bytes above this go as a `CKAsset`, below it in `encryptedValues`: a record holds at most
  /// 1 MB besides its assets, and a request of 400 records must stay well under CloudKit's
  /// request size, so a change file of a bulk import travels as an asset while the everyday
  /// one (a few hundred bytes) costs no asset upload.
  package static let assetThreshold = 64 * 1024

  /// Whether the record carries its bytes as an asset.
  package var isAsset: Bool { bytes.count > Self.assetThreshold }
}

/// One batch of fetched changes.
package struct CloudFetch: Equatable, Sendable {
  package var records: [CloudRecord]
  /// Names of records deleted on the server (the carrier keeps its files: see
  /// ``CloudKitTransport``).
  package var deletedNames: [String]
  /// The engine state after this batch: saved once the batch's files are durable.
  package var state: Data
  /// Whether more batches wait.
  package var moreComing: Bool

  package init(records: [CloudRecord], deletedNames: [String] = [], state: Data, moreComing: Bool) {
    self.records = records
    self.deletedNames = deletedNames
    self.state = state
    self.moreComing = moreComing
  }
}

/// The account as the engine sees it (`CKAccountStatus`, and the user record's name).
package enum CloudAccount: Equatable, Sendable {
  case signedIn(id: String)
  case signedOut
  /// Signed in, but the account cannot be used for now (`temporarilyUnavailable`: often
  /// after a password change, until the user confirms it in Settings).
  case temporarilyUnavailable
  /// Parental controls or device management forbid iCloud (`restricted`).
  case restricted
  /// The system could not tell (`couldNotDetermine`).
  case unknown
}

/// What the engine reports besides records.
package enum CloudEvent: Equatable, Sendable {
  case accountChange(CloudAccountChange)
  case zoneDeleted(CloudZoneDeletion)
  /// This account accepted `owner`'s share of its zone (the shared database's zone appeared).
  case shareAccepted(owner: String)
  /// The share of `owner`'s zone ended for this account (the shared database's zone deleted).
  case shareEnded(owner: String, CloudShareEnd)
  /// The accounts that accepted the share of this account's own zone, now (its `CKShare`'s
  /// accepted participants).
  case participantsChanged([String])
}

/// Why a share ended for a participant.
package enum CloudShareEnd: String, Codable, Equatable, Sendable {
  /// This account left it (on this device or another of its own).
  case left
  /// The owner stopped sharing, or deleted the zone.
  case stopped
}

/// `CKSyncEngine.Event.AccountChange.ChangeType`.
package enum CloudAccountChange: Equatable, Sendable {
  case signIn(String)
  case signOut(String)
  case switchAccounts(from: String, to: String)
}

/// `CKSyncEngine.Event.FetchedDatabaseChanges.Deletion.Reason`.
package enum CloudZoneDeletion: String, Equatable, Sendable, CaseIterable {
  /// This program (on some device) deleted the zone.
  case deleted
  /// The user deleted the app's data in iCloud settings.
  case purged
  /// The user reset end-to-end encrypted data during account recovery.
  case encryptedDataReset
}
