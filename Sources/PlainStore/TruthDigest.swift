import Foundation

extension StoreContainer {
  /// A digest of the truth of the store at `directory`, read without opening the store (nothing
  /// is written): each device's change files and snapshots by name (in the sync folder, arrived
  /// or not downloaded, and in the outbox, where a file waits as the same file), the journal's
  /// size (a commit whose file a crash kept in the journal) and whether the carrier is there.
  /// Change files are created once and never edited, so while the digest stays the same so does
  /// what the store holds: an app's launch that found work done at one digest need not open
  /// the store to find it done again. Any other change (a file arrived, compacted away, a
  /// commit) gives another digest; so may things that change nothing (a sync engine's
  /// temporary file), which only cost an open.
  public static func truthDigest(ofStoreAt directory: URL, options: StoreOptions = StoreOptions()) -> String {
    let files = StoreFiles(
      root: directory, syncFolder: options.syncFolder, transport: options.transport ?? FolderTransport(), reads: options.newestChangeFormat)
    let changes = files.changes
    var names: Set<String> = []
    if changes.isCarrying {
      for device in changes.transport.list(changes.path).arrived where DeviceID(device) != nil {
        let listing = changes.transport.list(changes.path + "/" + device)
        for name in listing.arrived + listing.notDownloaded { names.insert(device + "/" + name) }
      }
    }
    for device in changes.outbox.devices() {
      for name in changes.outbox.names(of: device) { names.insert(device.text + "/" + name) }
    }
    var hash = FNV1a.hash(Array("carrier \(changes.isCarrying) journal \(files.journal.size)\n".utf8))
    for name in names.sorted() { hash = FNV1a.hash(Array((name + "\n").utf8), from: hash) }
    return Digits.hex16(hash)
  }
}
