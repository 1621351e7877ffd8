import Foundation

/// The carrier of a ``MemorySyncSpace``: `changes/` stays the store's own folder (in memory or
/// on disk), read and written as the plain folder carrier does, and each
/// ``StoreContainer/sync()`` exchanges it with the space, as a sync engine mirrors a folder:
/// this device's folder is copied to the space as it is (its compacted files go), and every
/// other device's folder in the space is copied here as it is there.
struct MemorySpaceTransport: ExchangingTransport {
  let space: MemorySyncSpace

  init(space: MemorySyncSpace) { self.space = space }

  var isAvailable: Bool { true }
  var canDownload: Bool { false }

  func exchange(_ folder: ChangeFolder, own: DeviceID?, now: Date, sending: Bool, fetching: Bool, phase: (@Sendable (String) -> Void)?) throws {
    if sending, let own { try send(folder, own) }
    guard fetching else { return }
    let others = space.folders.withLock { folders in folders.filter { $0.key != own?.text } }
    for (device, files) in others.sorted(by: { $0.key < $1.key }) {
      guard let device = DeviceID(device) else { continue }
      try receive(files, of: device, into: folder)
    }
  }

  /// This device's folder, as it is now, becomes its folder in the space.
  private func send(_ folder: ChangeFolder, _ own: DeviceID) throws {
    var files: [String: Data] = [:]
    for name in FileSystem.list(folder.deviceURL(own)) {
      guard let data = try FileSystem.read(atPath: folder.filePath(own, name), displayPath: folder.display(own, name)) else { continue }
      files[name] = data
    }
    space.folders.withLock { $0[own.text] = files }
  }

  /// Another device's folder here becomes what the space holds of it: new and changed files
  /// written (each whole, at once, as a sync engine brings them), files it no longer has removed.
  private func receive(_ files: [String: Data], of device: DeviceID, into folder: ChangeFolder) throws {
    let url = folder.deviceURL(device)
    try FileSystem.makeFolder(url, displayPath: folder.displayName + "/" + device.text)
    for (name, data) in files.sorted(by: { $0.key < $1.key }) {
      let path = folder.filePath(device, name)
      guard try FileSystem.read(atPath: path, displayPath: folder.display(device, name)) != data else { continue }
      try FileSystem.writeAtomically(data, to: url.appendingPathComponent(name), displayPath: folder.display(device, name))
    }
    for name in FileSystem.list(url) where files[name] == nil {
      FileSystem.remove(atPath: folder.filePath(device, name))
    }
  }
}
