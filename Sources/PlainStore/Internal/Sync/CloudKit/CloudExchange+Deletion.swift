import Foundation

extension CloudExchange {
  /// Deletes from the zone the records of this device's own files that are no longer here — a
  /// change compaction deleted them, once a snapshot of this device held what they said — so a
  /// joining phone fetches the newest snapshot and what came after, not the history (issue #56,
  /// item 5). Runs only after every file went up, so the snapshot that supersedes them is on the
  /// server before they leave it.
  ///
  /// Only records the state knows are on the server, of this device's own id, and never a
  /// conflict copy (which may hold another copy's of the store's change): another phone's
  /// records are its own to delete. In requests of at most ``requestLimit`` names; each error
  /// goes through ``CloudErrorAction/actionOnDelete(for:)``. A record deleted and the state not
  /// saved (a kill) is deleted again at the next sync, where `unknownItem` is success.
  mutating func deleteCompactedAway() throws {
    var queue = Self.chunks(compactedAway(), of: Self.requestLimit)
    while !queue.isEmpty {
      let batch = queue.removeFirst()
      do {
        try database.delete(batch, in: state.zone)
        for name in batch { state.forget(name) }
      } catch let error as CloudError {
        queue.insert(contentsOf: try settle(batch, error, by: CloudErrorAction.actionOnDelete, name: { $0 }) { try $0.settleDeletion($1, $2) }, at: 0)
      }
    }
  }

  /// The names to delete: this device's own records the server holds whose files are gone here.
  func compactedAway() -> [String] {
    guard let own, FileSystem.isFolder(atPath: folder.deviceURL(own).path) else { return [] }
    return state.onServer.filter { name in
      guard let (device, file) = CloudRecordName.parse(name), device == own, !ChangeFileName.classify(file).isConflictCopy else { return false }
      return !FileSystem.exists(atPath: folder.filePath(device, file))
    }.sorted()
  }

  /// One name's failure: the names to delete again.
  private mutating func settleDeletion(_ name: String, _ error: CloudError) throws -> [String] {
    switch CloudErrorAction.actionOnDelete(for: error.code) {
    case .settled:
      state.forget(name)
      return []
    case .resend:
      try countResend(name, error)
      return [name]
    case .perRecord, .splitBatch, .compareWithServer, .recreateZoneAndResend, .restartFromNoToken, .wait:
      throw error
    }
  }
}

extension CloudExchange {
  /// Forgets the server (fetch from the beginning, offer every file again), but for the records
  /// of this device's files compacted away: still taken as known, so a fetch from no token does
  /// not write them back here, and deleted from the zone at the next send (`unknownItem`, from a
  /// zone made again, is success).
  mutating func forgetServer() {
    let compacted = compactedAway()
    state.forgetServer()
    state.onServer.formUnion(compacted)
  }
}
