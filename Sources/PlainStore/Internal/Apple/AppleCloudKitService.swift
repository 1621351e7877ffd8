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
  final class AppleCloudKitService: CloudDatabase, CKSyncEngineDelegate, @unchecked Sendable {  // `heard` and `engine` behind `lock`
    let container: CKContainer
    private let zone = CKRecordZone(zoneName: "PlainStore")
    private let lock = NSLock()
    private var engine: CKSyncEngine?
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
      locked {
        defer { heard.events = [] }
        return heard.events
      }
    }

    func createZone() throws {
      let engine = try engine(state: locked { engineState })
      engine.state.add(pendingDatabaseChanges: [.saveZone(zone)])
      try wait { try await engine.sendChanges() }
    }

    func save(_ records: [CloudRecord]) throws {
      let engine = try engine(state: locked { engineState })
      locked {
        for record in records { outgoing[record.name] = record }
        heard.failures = [:]
      }
      engine.state.add(pendingRecordZoneChanges: records.map { .saveRecord(CKRecord.ID(recordName: $0.name, zoneID: zone.zoneID)) })
      try wait { try await engine.sendChanges() }
      let failures = locked { heard.failures }
      if !failures.isEmpty { throw CloudError(.partialFailure, perRecord: failures) }
    }

    func delete(_ names: [String]) throws {
      let engine = try engine(state: locked { engineState })
      locked { heard.failures = [:] }
      engine.state.add(pendingRecordZoneChanges: names.map { .deleteRecord(CKRecord.ID(recordName: $0, zoneID: zone.zoneID)) })
      try wait { try await engine.sendChanges() }
      let failures = locked { heard.failures }
      if !failures.isEmpty { throw CloudError(.partialFailure, perRecord: failures) }
    }

    func fetchChanges(since state: Data?) throws -> CloudFetch {
      let engine = try engine(state: state)
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
        let deletions = changes.deletions.filter { $0.zoneID == zone.zoneID }.map { deletion -> CloudEvent in
          switch deletion.reason {
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
        self.locked { self.outgoing[id.recordName] }.map { self.ckRecord($0) }
      }
    }

    // MARK: Mapping

    /// A record with its bytes in `encryptedValues`, or, large, as an asset (``CloudRecord/isAsset``).
    private func ckRecord(_ record: CloudRecord) -> CKRecord {
      let ck = CKRecord(recordType: "ChangeFile", recordID: CKRecord.ID(recordName: record.name, zoneID: zone.zoneID))
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

    /// The engine, made again when `state` is not the one it has.
    private func engine(state: Data?) throws -> CKSyncEngine {
      try locked {
        if let engine, engineState == state { return engine }
        let serialization = try state.map { try JSONDecoder().decode(CKSyncEngine.State.Serialization.self, from: $0) }
        var configuration = CKSyncEngine.Configuration(database: container.privateCloudDatabase, stateSerialization: serialization, delegate: self)
        configuration.automaticallySync = false
        let made = CKSyncEngine(configuration)
        (engine, engineState, heard.state) = (made, state, state)
        return made
      }
    }

    /// Runs `work` and waits for it, its error mapped to a ``CloudError``.
    private func wait(_ work: @escaping @Sendable () async throws -> Void) throws {
      let done = DispatchSemaphore(value: 0)
      let failure = Failure()
      Task {
        do { try await work() } catch { failure.error = Self.cloudError(error) }
        done.signal()
      }
      done.wait()
      if let error = failure.error { throw error }
    }

    /// The error of a waited-for task, read after its semaphore signalled.
    private final class Failure: @unchecked Sendable {
      var error: CloudError?
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
      lock.lock()
      defer { lock.unlock() }
      return try body()
    }
  }
#endif
