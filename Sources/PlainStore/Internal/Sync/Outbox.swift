import Foundation

/// `outbox/<device>/…` in the store folder (the app group): this device's change files (and its
/// `device.json`) made while the carrier is not there, or is another account's. They are the
/// truth until they move into the sync folder — never a cache: `local/` may be deleted, the
/// outbox never is — and every reading of "the files" (a merge, a rebuild, a catch-up) reads
/// them as this device's own. ``StoreCoordinator/drainOutbox(_:_:)`` moves them, in order.
struct Outbox: Sendable {
  let url: URL
  /// How messages name the folder, e.g. "BabyDashboard.store/outbox".
  let displayName: String
  private let path: String

  init(url: URL, displayName: String) {
    self.url = url
    self.displayName = displayName
    path = url.path
  }

  func filePath(_ device: DeviceID, _ name: String) -> String { path + "/" + device.text + "/" + name }
  func display(_ device: DeviceID, _ name: String) -> String { displayName + "/" + device.text + "/" + name }

  /// Whether it holds nothing: the folder goes once it is drained, so one look answers.
  var isEmpty: Bool { !FileSystem.exists(atPath: path) }

  /// The device folders it holds (this device's, and an older id of this copy's).
  func devices() -> [DeviceID] {
    FileSystem.list(url).compactMap(DeviceID.init).sorted { $0.text < $1.text }
  }

  /// A device's files, in the order they move: `device.json` first, then its changes by
  /// sequence (the names sort so). Temporary files of a write in progress are not listed.
  func names(of device: DeviceID) -> [String] {
    let names = FileSystem.list(url.appendingPathComponent(device.text))
    return names.filter { $0 == "device.json" } + names.filter { $0 != "device.json" }
  }

  /// Whether it holds a device's file of that name.
  func contains(_ device: DeviceID, _ name: String) -> Bool { FileSystem.exists(atPath: filePath(device, name)) }

  /// Makes the folder of a device's files.
  func makeDeviceFolder(_ device: DeviceID) throws {
    if FileSystem.isFolder(atPath: path + "/" + device.text) { return }
    try FileSystem.makeFolder(url, displayPath: displayName)
    try FileSystem.makeFolder(url.appendingPathComponent(device.text), displayPath: displayName + "/" + device.text)
  }

  /// Removes a file that has moved, then the folders it leaves empty: an empty outbox is no
  /// folder at all.
  func remove(_ device: DeviceID, _ name: String) {
    FileSystem.remove(atPath: filePath(device, name))
    removeIfEmpty(device)
  }

  /// Removes the outbox's folder once it holds no device's folder: a drain killed after it
  /// removed the last one and before the outbox's leaves it empty, which would keep sending
  /// commits through it.
  func removeIfEmpty() {
    rmdir(path)  // fails, harmlessly, while it holds anything
  }

  /// Removes a device's folder, and the outbox's, once they hold nothing but what a killed
  /// write left (its temporary file, which would keep the folder, and so the outbox, forever).
  /// Runs holding the flock, when no write is in progress.
  func removeIfEmpty(_ device: DeviceID) {
    FileSystem.removeLeftoverTemporaryFiles(in: url.appendingPathComponent(device.text))
    rmdir(path + "/" + device.text)  // fails, harmlessly, while it holds files
    rmdir(path)
  }
}
