import Foundation

extension StoreCoordinator {
  /// Takes a new device id for a copy of the store (a restored backup, a cloned phone) that
  /// found another copy writing under its id, and first re-publishes under the new id every
  /// change of the old id that a snapshot covers (`covered`). Returns them, to be folded with
  /// what arrived.
  ///
  /// A snapshot stands for every change of a device up to a number, whichever file holds that
  /// number (see `ChangeFolder.scanDevice`): when one copy compacted while the other wrote under
  /// a number it covers, no device would ever fold the other's change. Re-published with their
  /// own clocks, the changes fold as they would have; one the snapshot does hold folds again to
  /// the same state (each field goes to its newest stamp, a delete stays a delete, a merge of
  /// identities is for good), so re-publishing more than was left out costs files, not data.
  /// They are durable before the new id is recorded: a crash in between leaves the files of a
  /// device that never writes again, and the next merge, under the old id still, re-publishes
  /// them once more.
  func takeNewDeviceID(leaving old: DeviceID, covered: Int, _ state: inout StoreState, _ files: StoreFiles) throws -> [ChangeFile] {
    let new = DeviceID.mint()
    var republished: [ChangeFile] = []
    for change in try files.changes.changes(of: old, through: covered) {
      var copy = change
      copy.device = new
      copy.sequence = republished.count + 1
      try files.changes.write(copy)
      republished.append(copy)
    }
    _ = try mintDevice(&state, files, preferred: new)
    return republished
  }
}
