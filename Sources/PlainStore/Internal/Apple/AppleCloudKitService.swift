#if canImport(Darwin)
  #if canImport(CloudKit)
    import CloudKit
  #endif
  import Foundation

  /// CloudKit through CKSyncEngine: the ``CloudDatabase`` calls the CloudKit carrier makes, each
  /// one engine call, and the record mapping. Every rule (what to send, where fetched records go,
  /// when the state is saved, what an error means) is ``CloudExchange``'s, tested on Linux
  /// through `SimulatedCloudKit`; Linux type-checks this file against a stub of exactly the
  /// CloudKit declarations it uses (Scripts/check-apple-stub.sh).
  ///
  /// The seam is synchronous, as `StoreContainer.sync()` is: each call waits for the engine's
  /// async work, so `sync()` with this carrier belongs on a background thread (a dispatch queue),
  /// never the main thread. The engine syncs only when asked (`automaticallySync` off): the app
  /// calls `sync()` on launch, on foreground and on a push.
  ///
  /// Sharing: the zone is `PlainStore` in the private database; the app shares it whole with
  /// `CKShare(recordZoneID:)` and accepts a share with `CKContainer.accept(_:)`, through Apple's
  /// sharing UI. This service finds the result at each sync (``sharingEvents()``) and syncs an
  /// accepted zone through an engine on the shared database.
  final class AppleCloudKitService: CloudDatabase, CKSyncEngineDelegate, @unchecked Sendable {  // `heard` and `engine` behind `lock`
    let container: CKContainer
    private let zone = CKRecordZone(zoneName: "PlainStore")
    private let lock = NSLock()
    private var engine: CKSyncEngine?
    /// The zone `engine` syncs: its database is the private one for the own zone, else the shared.
    private var engineZone: CloudZone = .own
    /// The owners of the shares accepted, and the accounts this account's zone is shared with, at
    /// the last look; nil: not looked yet since launch.
    private var sharesSeen: Set<String>?
    private var participantsSeen: [String]?
    /// The state the engine was made with, or last handed out by a fetch: another one asked
    /// for (none, after the carrier forgot the server) makes the engine again.
    private var engineState: Data?
    private var heard = Heard()
    /// Records to send, by name, until the engine asks for them.
    private var outgoing: [String: CloudRecord] = [:]
    private var currentAccount: CloudAccount = .unknown

    /// What the engine's events brought since the last call.
    private struct Heard {
      var events: [CloudEvent] = []
      var records: [CloudRecord] = []
      var deletedNames: [String] = []
      var failures: [String: CloudError] = [:]
      var state: Data?
    }

    init(containerIdentifier: String?) {
      container = containerIdentifier.map { CKContainer(identifier: $0) } ?? CKContainer.default()
      Task { await self.lookUpAccount() }
    }

    private func lookUpAccount() async {
      let account: CloudAccount
      switch try? await container.accountStatus() {
      case .available?: account = (try? await container.userRecordID()).map { .signedIn(id: $0.recordName) } ?? .unknown
      case .noAccount?: account = .signedOut
      case .restricted?: account = .restricted
      case .temporarilyUnavailable?: account = .temporarilyUnavailable
      default: account = .unknown
      }
      locked { currentAccount = account }
    }

    // MARK: CloudDatabase

    func account() -> CloudAccount { locked { currentAccount } }

    func takeEvents() -> [CloudEvent] {
      let sharing = sharingEvents()
      return locked {
        defer { heard.events = [] }
        return heard.events + sharing
      }
    }

    /// What changed in sharing since the last look: the shares of a `PlainStore` zone in the
    /// shared database (accepted, or gone: the owner stopped it or this account left it, which
    /// the shared database does not tell apart), and who accepted this account's own zone's
    /// share. Not reachable now: nothing changed (a request of the carrier will tell).
    private func sharingEvents() -> [CloudEvent] {
      guard case .signedIn = account() else { return [] }
      let (container, zoneID) = (container, zone.zoneID)
      let found = try? wait { () async throws -> (Set<String>, [String]) in
        let zones = try await container.sharedCloudDatabase.allRecordZones()
        let share = try? await container.privateCloudDatabase.record(for: CKRecord.ID(recordName: CKRecordNameZoneWideShare, zoneID: zoneID)) as? CKShare
        let participants = (share?.participants ?? []).filter { $0.role != .owner && $0.acceptanceStatus == .accepted }
        return (
          Set(zones.map(\.zoneID).filter { $0.zoneName == zoneID.zoneName }.map(\.ownerName)),
          participants.compactMap { $0.userIdentity.userRecordID?.recordName }.sorted()
        )
      }
      guard let (owners, participants) = found else { return [] }
      return locked {
        let before = sharesSeen ?? []
        var events = owners.subtracting(before).sorted().map { CloudEvent.shareAccepted(owner: $0) }
        events += before.subtracting(owners).sorted().map { .shareEnded(owner: $0, .stopped) }
        if participants != participantsSeen ?? [] { events.append(.participantsChanged(participants)) }
        (sharesSeen, participantsSeen) = (owners, participants)
        return events
      }
    }

    func createZone() throws {
      let engine = try engine(.own, state: locked { engineState })
      engine.state.add(pendingDatabaseChanges: [.saveZone(zone)])
      try wait { try await engine.sendChanges() }
    }

    func save(_ records: [CloudRecord], in target: CloudZone) throws {
      let engine = try engine(target, state: locked { engineState })
      locked {
        for record in records { outgoing[record.name] = record }
        heard.failures = [:]
      }
      engine.state.add(pendingRecordZoneChanges: records.map { .saveRecord(CKRecord.ID(recordName: $0.name, zoneID: zoneID(target))) })
      try wait { try await engine.sendChanges() }
      let failures = locked { heard.failures }
      if !failures.isEmpty { throw CloudError(.partialFailure, perRecord: failures) }
    }

    func delete(_ names: [String], in target: CloudZone) throws {
      let engine = try engine(target, state: locked { engineState })
      locked { heard.failures = [:] }
      engine.state.add(pendingRecordZoneChanges: names.map { .deleteRecord(CKRecord.ID(recordName: $0, zoneID: zoneID(target))) })
      try wait { try await engine.sendChanges() }
      let failures = locked { heard.failures }
      if !failures.isEmpty { throw CloudError(.partialFailure, perRecord: failures) }
    }

    func fetchChanges(in target: CloudZone, since state: Data?) throws -> CloudFetch {
      let engine = try engine(target, state: state)
      locked { (heard.records, heard.deletedNames) = ([], []) }
      try wait { try await engine.fetchChanges() }
      return locked {
        // The engine fetches every batch in one call: its last state follows every record.
        let fetched = CloudFetch(records: heard.records, deletedNames: heard.deletedNames, state: heard.state ?? state ?? Data(), moreComing: false)
        engineState = fetched.state  // the state the carrier saves, and hands back next time
        return fetched
      }
    }

    // MARK: CKSyncEngineDelegate

    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {
      switch event {
      case .stateUpdate(let update):
        let state = try? JSONEncoder().encode(update.stateSerialization)
        locked { heard.state = state }
      case .accountChange(let change):
        let (event, account): (CloudAccountChange, CloudAccount) =
          switch change.changeType {
          case .signIn(let user): (.signIn(user.recordName), .signedIn(id: user.recordName))
          case .signOut(let user): (.signOut(user.recordName), .signedOut)
          case .switchAccounts(let previous, let user): (.switchAccounts(from: previous.recordName, to: user.recordName), .signedIn(id: user.recordName))
          @unknown default: (.signOut(""), .unknown)
          }
        locked {
          heard.events.append(.accountChange(event))
          currentAccount = account
        }
      case .fetchedDatabaseChanges(let changes):
        let shared = locked { engineZone } != .own
        let deletions = changes.deletions.filter { $0.zoneID.zoneName == zone.zoneID.zoneName }.map { deletion -> CloudEvent in
          // The shared database's zone gone: the share ended (its reasons are the owner's zone's).
          if shared { return .shareEnded(owner: deletion.zoneID.ownerName, .stopped) }
          return switch deletion.reason {
          case .deleted: .zoneDeleted(.deleted)
          case .purged: .zoneDeleted(.purged)
          case .encryptedDataReset: .zoneDeleted(.encryptedDataReset)
          @unknown default: .zoneDeleted(.purged)  // unknown: send nothing until a sign-in
          }
        }
        locked { heard.events += deletions }
      case .fetchedRecordZoneChanges(let changes):
        let records = changes.modifications.compactMap { Self.cloudRecord($0.record) }
        let deleted = changes.deletions.map { $0.recordID.recordName }
        locked {
          heard.records += records
          heard.deletedNames += deleted
        }
      case .sentRecordZoneChanges(let sent):
        let failures =
          sent.failedRecordSaves.map { ($0.record.recordID.recordName, Self.cloudError($0.error)) }
          + sent.failedRecordDeletes.map { ($0.key.recordName, Self.cloudError($0.value)) }
        locked {
          for record in sent.savedRecords { outgoing[record.recordID.recordName] = nil }
          for (name, error) in failures { heard.failures[name] = error }
        }
      default:
        break  // the will/did events and sent database changes tell nothing the carrier needs
      }
    }

    func nextRecordZoneChangeBatch(_ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine) async -> CKSyncEngine.RecordZoneChangeBatch? {
      let pending = syncEngine.state.pendingRecordZoneChanges
      return await CKSyncEngine.RecordZoneChangeBatch(pendingChanges: pending) { id in
        self.locked { self.outgoing[id.recordName] }.map { self.ckRecord($0, id: id) }
      }
    }

    // MARK: Mapping

    /// A record with its bytes in `encryptedValues`, or, large, as an asset (``CloudRecord/isAsset``).
    private func ckRecord(_ record: CloudRecord, id: CKRecord.ID) -> CKRecord {
      let ck = CKRecord(recordType: "ChangeFile", recordID: id)
      if record.isAsset {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        if (try? record.bytes.write(to: file)) != nil { ck["asset"] = CKAsset(fileURL: file) }  // unwritten: assetFileNotFound, resent
      } else {
        ck.encryptedValues["bytes"] = record.bytes
      }
      return ck
    }

    private static func cloudRecord(_ ck: CKRecord) -> CloudRecord? {
      let asset: CKAsset? = ck["asset"]
      guard let bytes = ck.encryptedValues["bytes"] ?? asset?.fileURL.flatMap({ try? Data(contentsOf: $0) }) else { return nil }
      return CloudRecord(name: ck.recordID.recordName, bytes: bytes)
    }

    private static func cloudError(_ error: any Error) -> CloudError {
      guard let ck = error as? CKError else { return CloudError(.internalError) }
      return CloudError(
        CloudError.Code(rawValue: ck.code.rawValue) ?? .internalError, retryAfter: ck.retryAfterSeconds,
        serverRecord: ck.serverRecord.flatMap(cloudRecord))
    }

    // MARK: Engine and waiting

    /// The engine of `target`'s database, made again when `state` or the zone is not the one it has.
    private func engine(_ target: CloudZone, state: Data?) throws -> CKSyncEngine {
      try locked {
        if let engine, engineState == state, engineZone == target { return engine }
        let serialization = try state.map { try JSONDecoder().decode(CKSyncEngine.State.Serialization.self, from: $0) }
        let database = target == .own ? container.privateCloudDatabase : container.sharedCloudDatabase
        var configuration = CKSyncEngine.Configuration(database: database, stateSerialization: serialization, delegate: self)
        configuration.automaticallySync = false
        let made = CKSyncEngine(configuration)
        (engine, engineState, engineZone, heard.state) = (made, state, target, state)
        return made
      }
    }

    /// The zone's id: this account's own, or the owner's as the shared database names it.
    private func zoneID(_ target: CloudZone) -> CKRecordZone.ID {
      guard case .sharedBy(let owner) = target else { return zone.zoneID }
      return CKRecordZone.ID(zoneName: zone.zoneID.zoneName, ownerName: owner)
    }

    /// Runs `work` and waits for it: its value, or its error mapped to a ``CloudError``.
    private func wait<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) throws -> Value {
      let done = DispatchSemaphore(value: 0)
      let outcome = Outcome<Value>()
      Task {
        do { outcome.result = .success(try await work()) } catch { outcome.result = .failure(Self.cloudError(error)) }
        done.signal()
      }
      done.wait()
      return try outcome.result!.get()
    }

    /// What a waited-for task ended with, read after its semaphore signalled.
    private final class Outcome<Value: Sendable>: @unchecked Sendable {
      var result: Result<Value, CloudError>?
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
      lock.lock()
      defer { lock.unlock() }
      return try body()
    }
  }
#endif
