import Foundation

/// Where containers that sync through ``SyncCarrier/memory(_:)`` meet: the change files each
/// device sent, kept in memory and shared by every container given the same space.
///
/// Two in-memory phones merging, with no disk and every rule of a real sync — change files,
/// the fold, unique keys, deletes, acknowledgements, compaction:
/// ```swift
/// let space = MemorySyncSpace()
/// var options = StoreOptions()
/// options.carrier = .memory(space)
/// let phone = StoreContainer.inMemory(schema: schema, options: options)
/// let tablet = StoreContainer.inMemory(schema: schema, options: options)
/// // … saves on each …
/// try phone.sync()   // sends its files, then merges the tablet's it finds
/// try tablet.sync()
/// try phone.sync()
/// ```
/// A file container can use one too. A ``StoreContainer/sync()`` sends its device's files to the
/// space and brings every other device's into its `changes/`; nothing moves between syncs.
public final class MemorySyncSpace: Sendable {
  /// Each device's files by name, by the name of its folder (the device id).
  let folders = StoreMutex<[String: [String: Data]]>([:])

  public init() {}

  /// Every file the space holds, as `<device>/<name>`, sorted: what the devices have sent.
  public var fileNames: [String] {
    folders.withLock { folders in
      folders.flatMap { device, files in files.keys.map { device + "/" + $0 } }.sorted()
    }
  }

  /// The bytes of a file ``fileNames`` names; nil when there is none.
  public func contents(of fileName: String) -> Data? {
    guard let slash = fileName.firstIndex(of: "/") else { return nil }
    let device = String(fileName[..<slash])
    let name = String(fileName[fileName.index(after: slash)...])
    return folders.withLock { $0[device]?[name] }
  }
}
