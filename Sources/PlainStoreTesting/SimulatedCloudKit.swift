import Foundation
import PlainStore

/// CloudKit's private database in memory, as CKSyncEngine meets it, for tests and previews on
/// any platform: one zone per account with its own change tokens, records with change tags, the
/// 400-record request limit, the record size limit, a quota, retry-after throttling, fetch
/// batches delivered late, twice, out of order or dropped, pushes late or lost, account changes,
/// zone deletions, and a zone shared whole with another account (``share(_:with:)``,
/// ``Device/acceptShare(from:)``, ``Device/leaveShare(of:)``, ``stopSharing(_:)``).
///
/// ```swift
/// let cloud = SimulatedCloudKit()
/// var options = StoreOptions()
/// options.carrier = .simulatedCloudKit(cloud, account: "family")
/// let phone = try StoreContainer.file(at: phoneStore, schema: schema, options: options)
/// try phone.sync()  // sends its change files, fetches the others', merges
/// ```
///
/// Deterministic: nothing happens unless a test calls for it, and time is ``now``, which only
/// ``advance(by:)`` moves.
public final class SimulatedCloudKit: Sendable {
  /// How the next fetch's batch reaches the device.
  public enum Delivery: Sendable, Equatable {
    /// Not yet: the fetch finds nothing new (the changes come with a later one).
    case late
    /// Its records twice over.
    case twice
    /// Its records in reverse order.
    case outOfOrder
    /// Lost on the way: the device hears a network failure, its token stays where it was.
    case dropped
  }

  /// Why a zone was deleted (`CKSyncEngine.Event.FetchedDatabaseChanges.Deletion.Reason`).
  public enum ZoneDeletionReason: Sendable, Equatable, CaseIterable {
    case deleted, purged, encryptedDataReset
  }

  /// The requests the simulation can fail on demand.
  public enum Operation: Sendable, Hashable {
    case save, delete, fetch, createZone
  }

  /// Records a save may hold (CloudKit's 400).
  public let requestLimit: Int
  /// Bytes a record may hold besides its assets (1 MB).
  public let recordSizeLimit: Int
  /// Records a fetch delivers at most.
  public let fetchBatchSize: Int

  // A StoreMutex, not Synchronization.Mutex: ThreadSanitizer sees its locks (see StoreMutex).
  // Reached through `withWorld`, which reads and writes the shared file first when there is one.
  let world: StoreMutex<World>
  /// Where the server side lives for every process that shares this cloud; nil: this process only.
  let sharedFile: URL?

  public init(requestLimit: Int = 400, recordSizeLimit: Int = 1_000_000, fetchBatchSize: Int = 200, now: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
    self.requestLimit = requestLimit
    self.recordSizeLimit = recordSizeLimit
    self.fetchBatchSize = max(1, fetchBatchSize)
    world = StoreMutex(World(now: now))
    sharedFile = nil
  }

  /// A cloud whose server side (zones, records, change tokens, the clock, throttles and quotas)
  /// lives in `file`, shared by every process that opens it there — an app and its widget, or
  /// a test and the child process it kills in the middle of a sync. Each process's devices,
  /// their account events and pushes, and injected faults stay its own. `now` sets the clock
  /// of a new file only.
  public init(
    sharedAt file: URL, requestLimit: Int = 400, recordSizeLimit: Int = 1_000_000, fetchBatchSize: Int = 200,
    now: Date = Date(timeIntervalSince1970: 1_800_000_000)
  ) {
    self.requestLimit = requestLimit
    self.recordSizeLimit = recordSizeLimit
    self.fetchBatchSize = max(1, fetchBatchSize)
    world = StoreMutex(World(now: now))
    sharedFile = file
  }

  /// A device signed in to `account` (nil: signed out), whose engine talks to this cloud; it
  /// finds the shares the account accepted, as a new engine finds them in the shared database.
  public func device(signedInAs account: String?) -> Device {
    let number = withWorld { world in
      world.devices.append(World.DeviceState(account: account, events: account.map(world.shares(acceptedBy:)) ?? []))
      return world.devices.count - 1
    }
    return Device(cloud: self, number: number)
  }

  // MARK: What a test controls

  /// The simulation's clock.
  public var now: Date { withWorld { $0.now } }

  /// Moves the clock on.
  public func advance(by seconds: TimeInterval) {
    withWorld { $0.now.addTimeInterval(seconds) }
  }

  /// Refuses `account`'s requests with `requestRateLimited` and a retry-after for `seconds`.
  public func throttle(_ account: String, for seconds: TimeInterval) {
    withWorld { $0.throttledUntil[account] = $0.now.addingTimeInterval(seconds) }
  }

  /// How the next fetch's batch is delivered (one entry per fetch, in order).
  public func deliverNextFetch(_ delivery: Delivery) {
    withWorld { $0.deliveries.append(delivery) }
  }

  /// How long the push of a save takes to reach the account's other devices (at first: none);
  /// nil: pushes are lost, as they may be. A device takes them with ``Device/takePushes()``.
  public func setPushDelay(_ seconds: TimeInterval?) {
    withWorld { $0.pushDelay = seconds }
  }

  /// Limits the bytes `account`'s zone may hold (nil: no limit); a save beyond is `quotaExceeded`.
  public func setQuota(_ account: String, bytes: Int?) {
    withWorld { $0.quota[account] = bytes }
  }

  /// Deletes `account`'s zone and tells every device signed in to it why, at its next fetch;
  /// the accounts it was shared with see the zone leave their shared database.
  public func deleteZone(of account: String, reason: ZoneDeletionReason) {
    withWorld { world in
      let participants = world.zones[account]?.participants ?? []
      world.zones[account] = nil
      world.tell(account, .zoneDeleted(reason.engine))
      for participant in participants.sorted() { world.tell(participant, .shareEnded(owner: account, .stopped)) }
    }
  }

  /// Shares `owner`'s zone whole with `participant` (the owner saves a `CKShare(recordZoneID:)`
  /// and invites the other parent): nothing changes until the participant accepts
  /// (``Device/acceptShare(from:)``). The zone must be there (the owner synced once).
  public func share(_ owner: String, with participant: String) {
    withWorld { world in
      guard world.zones[owner] != nil else { preconditionFailure("share: \(owner) has no zone yet") }
      world.zones[owner]!.invited.insert(participant)
    }
  }

  /// The owner stops sharing its zone (deletes its `CKShare`): every participant's devices see
  /// the zone leave their shared database, and the owner's hear that no one shares it.
  public func stopSharing(_ owner: String) {
    withWorld { world in
      guard let participants = world.zones[owner]?.participants else { return }
      world.zones[owner]!.participants = []
      world.zones[owner]!.invited = []
      for participant in participants.sorted() { world.tell(participant, .shareEnded(owner: owner, .stopped)) }
      world.tellParticipants(of: owner)
    }
  }

  /// Deletes `account`'s zone and tells no one: the next request meets `zoneNotFound`.
  public func loseZone(of account: String) {
    withWorld { $0.zones[account] = nil }
  }

  /// The accounts that accepted the share of `owner`'s zone, sorted; nil when it has no zone.
  public func participants(of owner: String) -> [String]? {
    withWorld { $0.zones[owner].map { $0.participants.sorted() } }
  }

  /// The names of the records `account`'s zone holds, sorted.
  public func recordNames(of account: String) -> [String] {
    withWorld { $0.zones[account]?.records.keys.sorted() ?? [] }
  }

  /// Records every fetch delivered, and their bytes (a batch delivered twice counts twice): what
  /// a joining phone paid to come in.
  public var fetched: (records: Int, bytes: Int) { withWorld { ($0.fetchedRecords, $0.fetchedBytes) } }

  /// The number of names of each delete request that reached the server, in order.
  public var deleteRequestSizes: [Int] { withWorld { $0.deleteRequestSizes } }

  /// The number of records of each save request that reached the server, in order.
  public var saveRequestSizes: [Int] { withWorld { $0.saveRequestSizes } }

  /// Every request that reached the server, refused ones included.
  public var requestCount: Int { withWorld { $0.requestCount } }

  /// Faults and deliveries asked for that no request has met yet.
  public var faultsWaiting: Int { withWorld { $0.faults.values.reduce($0.deliveries.count) { $0 + $1.count } } }

  /// Fails the next `operation` with `error`, before anything else is looked at.
  package func failNext(_ operation: Operation, with error: CloudError) {
    withWorld { $0.faults[operation, default: []].append(error) }
  }
}

extension SimulatedCloudKit.ZoneDeletionReason {
  var engine: CloudZoneDeletion {
    switch self {
    case .deleted: .deleted
    case .purged: .purged
    case .encryptedDataReset: .encryptedDataReset
    }
  }
}

extension SyncCarrier {
  /// Change files carried through `cloud`, signed in to `account`: two containers of one
  /// account sync through it with ``StoreContainer/sync()``; another account's see none of it.
  public static func simulatedCloudKit(_ cloud: SimulatedCloudKit, account: String) -> SyncCarrier {
    .simulatedCloudKit(cloud.device(signedInAs: account))
  }

  /// Change files carried through a simulated device, whose account a test changes.
  public static func simulatedCloudKit(_ device: SimulatedCloudKit.Device) -> SyncCarrier {
    .cloudKit(database: device)
  }
}
