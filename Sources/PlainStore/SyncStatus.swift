import Foundation

/// What a store's `changes/` folder holds and what it waits for: the answer to "are the two
/// phones in step?".
public struct SyncStatus: Sendable, Equatable {
  /// One device that has written change files.
  public struct Device: Sendable, Equatable {
    /// Its id, 32 lowercase hex digits (the name of its folder in `changes/`).
    public var id: String
    /// The name it gave itself, if its `device.json` has arrived.
    public var name: String
    public var isThisDevice: Bool
    /// Its newest change that has arrived here, and when it was written.
    public var lastSequence: Int
    public var lastChange: Date?
    /// How many of its changes below `lastSequence` have not arrived (or arrived incomplete).
    public var waiting: Int
    /// The number of its newest snapshot (its compacted view), if one has arrived.
    public var snapshot: Int?
    /// How far its newest snapshot acknowledges this device's changes: this device deletes
    /// its own change files up to there once every active device is as far.
    public var acknowledgesThisDeviceThrough: Int?
    /// Silent for longer than ``StoreOptions/inactiveDeviceInterval``: it no longer holds
    /// back compaction, and merges from the snapshots when it returns.
    public var isInactive: Bool
    /// How far its clock runs ahead of this device's, when that is more than a day: its
    /// changes still merge, but they win over this device's until this clock catches up.
    public var clockAhead: TimeInterval? = nil
    /// Its changes that have arrived whole and are not merged yet: what ``StoreContainer/sync()``
    /// would bring.
    public var readyToMerge: Int = 0
  }

  /// Whether change files travel between the devices now.
  public enum Carrier: Sendable, Equatable {
    case available
    /// Not there (signed out, iCloud Drive off, not resolved yet): commits wait in the outbox.
    case unavailable(UnavailableReason)
    /// Signed in to another account than the one this store synced with: nothing is read from
    /// or written to that account's container, commits wait in the outbox, until the account
    /// this store synced with is back.
    case accountChanged
  }

  /// Why a carrier is not there, as far as it can tell.
  public enum UnavailableReason: Sendable, Equatable {
    case signedOut
    case driveOff
    /// Signed out of iCloud, or iCloud Drive off for this app: Foundation's identity token is
    /// nil in both cases and tells no more.
    case signedOutOrDriveOff
    /// The container is still being looked up (the first moments after launch or sign-in).
    case notResolvedYet
    /// The signed-in account cannot be told from another (its identity token could not be
    /// archived, in the system's words): nothing is carried rather than mix two accounts' data.
    case accountUnreadable(String)
    case unknown
  }

  /// The last change of another device that has arrived here.
  public struct Arrival: Sendable, Equatable {
    /// The device's name (its id's first 8 digits when it gave none).
    public var device: String
    /// When that device wrote the change.
    public var written: Date
  }

  /// Whether change files travel now, and if not, why.
  public var carrier: Carrier = .available
  /// This device's change files that wait in the outbox (in the app group) for the carrier,
  /// oldest first (display paths); they move into the sync folder, in order, when it is there.
  public var outbox: [String] = []
  /// When the oldest change in the outbox was made.
  public var outboxOldest: Date?
  /// Why the outbox does not move although the carrier is there: a file of the sync folder
  /// holds other bytes under the name of the outbox's next file (nothing was overwritten).
  public var outboxBlocked: String?
  /// What the carrier could not do last, and what happens next, in words ("iCloud storage is
  /// full: changes wait on this device…"); nil when all is well or the carrier cannot tell.
  public var carrierNote: String? = nil
  /// The newest change from another device that has arrived; nil when none has.
  public var lastArrival: Arrival?
  /// This copy's device id; nil until it first commits.
  public var thisDevice: String?
  /// The folder the change files are in.
  public var folder: URL
  /// Every device with a folder, this one first, then by id.
  public var devices: [Device]
  /// Other devices' files that are incomplete or damaged so far: read again at the next sync.
  public var notArrived: [String]
  /// Files, this device's own included, that a placeholder (`.NAME.icloud`) stands for: whole
  /// in the cloud, not downloaded here. Never damage and never lost: the cache holds what this
  /// device folded of them, and each is read once it is downloaded.
  public var notDownloaded: [String]
  /// Those of ``notDownloaded`` that this copy has not merged: what they hold is not shown
  /// until they are downloaded (after a cache rebuild, or another device's newest changes).
  public var waitingForDownload: [String]
  /// Names in `changes/` that the store did not write: left alone.
  public var unknownFiles: [String]
  /// Sync engines' temporary files, placeholders and the like, skipped.
  public var artefactsSkipped: Int
  /// Conflict copies read as the change they copy.
  public var conflictCopies: Int
  /// Change files written by a newer version of the program (a newer schema) on another
  /// device: kept, and merged once this program is updated.
  public var awaitingUpdate: [String]
}
