import Foundation

/// What carries a store's change files between devices (``StoreOptions/carrier``).
///
/// ```swift
/// // On a background task: resolving the container may wait for iCloud.
/// if let cloud = await SyncCarrier.iCloudDriveFolder() {
///   var options = StoreOptions(syncFolder: cloud.appendingPathComponent("BabyDashboard.changes"))
///   options.carrier = .iCloudDrive()
///   let container = try StoreContainer.file(at: appGroupStore, schema: schema, options: options)
/// }
/// ```
public struct SyncCarrier: Sendable {
  let transport: any ChangeTransport

  init(_ transport: any ChangeTransport) { self.transport = transport }

  /// A plain folder that a sync engine mirrors (Syncthing, Dropbox, a Mac's iCloud Drive folder):
  /// read and written as files; a `.NAME.icloud` placeholder there is NAME not downloaded,
  /// which this carrier cannot ask for.
  public static let folder = SyncCarrier(FolderTransport())

  /// A ``MemorySyncSpace`` shared by containers in this process (previews, tests): each
  /// ``StoreContainer/sync()`` sends this device's change files to the space and brings the
  /// other devices' from it, so in-memory containers merge as phones do, every rule included.
  public static func memory(_ space: MemorySyncSpace) -> SyncCarrier {
    SyncCarrier(MemorySpaceTransport(space: space))
  }

  /// A zone of CloudKit's private database, through an engine behind ``CloudDatabase`` (Apple's
  /// CKSyncEngine, or `PlainStoreTesting.SimulatedCloudKit`): `changes/` stays a local folder,
  /// and ``StoreContainer/sync()`` sends what the zone lacks and fetches what it holds.
  package static func cloudKit(database: any CloudDatabase) -> SyncCarrier {
    SyncCarrier(CloudKitTransport(database: database))
  }

  #if canImport(Darwin)
    /// The app's iCloud Drive ubiquity container, as iOS keeps it: files of other devices and
    /// evicted files of this one are asked for and downloaded, reads and writes are coordinated
    /// (`NSFileCoordinator`), arrivals are heard through a metadata query. Point
    /// ``StoreOptions/syncFolder`` into the container (``iCloudDriveFolder(containerIdentifier:)``).
    /// - Parameter containerIdentifier: `iCloud.com.example.app`; nil: the app's first container.
    public static func iCloudDrive(containerIdentifier: String? = nil) -> SyncCarrier {
      SyncCarrier(UbiquityTransport(service: AppleUbiquityService(containerIdentifier: containerIdentifier)))
    }

    /// CloudKit's private database, one zone, through CKSyncEngine (see <doc:CloudKit>):
    /// `changes/` stays a local folder, and each ``StoreContainer/sync()`` sends the files the
    /// zone lacks and fetches the others', waiting for CloudKit — so call it off the main thread,
    /// at each ``SyncTrigger`` (``StoreContainer/sync(_:)``; the engine never syncs on its own).
    /// - Parameter containerIdentifier: `iCloud.com.example.app`; nil: the app's default container.
    public static func cloudKit(containerIdentifier: String? = nil) -> SyncCarrier {
      .cloudKit(database: AppleCloudKitService(containerIdentifier: containerIdentifier))
    }

    /// The ubiquity container's folder, resolved off the main thread (it may wait for iCloud);
    /// nil while iCloud Drive is off or the app has no container.
    public static func iCloudDriveFolder(containerIdentifier: String? = nil) async -> URL? {
      await Task.detached { AppleUbiquityService(containerIdentifier: containerIdentifier).containerURL() }.value
    }
  #endif
}
