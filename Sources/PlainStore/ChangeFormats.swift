import Foundation

/// What the devices of a family publish about the change-file formats they read, as this device
/// sees them: whether this program is the older one, and whether a newer format waits for another
/// device's update (two versions of an app side by side, as a phased release makes them).
public struct ChangeFormats: Sendable, Equatable {
  /// The newest change-file format this program reads.
  public var reads: Int
  /// The format this device writes: the newest that it and every active device of the family read.
  public var writes: Int
  /// Devices that read a newer format than this program (by name, else their id's first 8
  /// digits): this program is the older one, and should be updated.
  public var newer: [String] = []
  /// Active devices that do not read ``reads``: the newer format waits for their update.
  public var waitingFor: [String] = []

  public init(reads: Int, writes: Int, newer: [String] = [], waitingFor: [String] = []) {
    (self.reads, self.writes, self.newer, self.waitingFor) = (reads, writes, newer, waitingFor)
  }
}

extension StoreContainer {
  /// What the family's devices publish about the change-file formats they read, read from the
  /// sync folder of the store at `directory` without opening the store (nothing is written): for
  /// an app's launch. Nil while the carrier is not there.
  public static func changeFormats(ofStoreAt directory: URL, options: StoreOptions = StoreOptions()) -> ChangeFormats? {
    let files = StoreFiles(
      root: directory, syncFolder: options.syncFolder, transport: options.transport ?? FolderTransport(), reads: options.newestChangeFormat)
    return files.changes.changeFormats(own: files.recordedDevice, now: options.clock(), inactiveAfter: options.inactiveDeviceInterval)
  }
}
