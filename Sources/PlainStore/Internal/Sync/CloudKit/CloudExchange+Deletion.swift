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
        try database.delete(batch)
        for name in batch { state.forget(name) }
      } catch let error as CloudError {
        queue.insert(contentsOf: try settleDeletion(batch, error), at: 0)
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

  /// What to delete again after a delete request failed; throws the error that ends the sync.
  private mutating func settleDeletion(_ batch: [String], _ error: CloudError) throws -> [[String]] {
    switch CloudErrorAction.actionOnDelete(for: error.code) {
    case .splitBatch where batch.count > 1:
      let half = batch.count / 2
      return [Array(batch[..<half]), Array(batch[half...])]
    case .perRecord:
      var again: [String] = []
      var ending: CloudError?
      for name in batch {
        // One not named is not known to be deleted: deleted again, where `unknownItem` is success.
        let own = error.perRecord[name] ?? CloudError(.batchRequestFailed)
        do { again += try settleDeletion(name, own) } catch let stop as CloudError { ending = ending ?? stop }
      }
      if let ending { throw ending }
      return again.isEmpty ? [] : Self.chunks(again, of: Self.requestLimit)
    case .settled, .resend:
      var again: [String] = []
      for name in batch { again += try settleDeletion(name, error) }
      return again.isEmpty ? [] : [again]
    case .splitBatch, .compareWithServer, .recreateZoneAndResend, .restartFromNoToken, .wait:
      throw error
    }
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
