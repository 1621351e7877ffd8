import Foundation

extension StoreCoordinator {
  /// Takes a new device id for a copy of the store (a restored backup, a cloned phone) that
  /// found another copy writing under its id, and first re-publishes under the new id what the
  /// old id's files hold: every change of the old id it holds, and the old id's snapshots joined
  /// into one. Returns what it wrote, to be folded with what arrived.
  ///
  /// A snapshot stands for every change of a device up to a number, whichever file holds that
  /// number (see `ChangeFolder.scanDevice`), and a device's newest snapshot for its older ones:
  /// when one copy compacted while the other wrote under a number it covers, or compacted
  /// again past the other's snapshot, no device would ever fold the other's writes. Not only
  /// the numbers a snapshot covers now: the other copy, or any device that has folded only the
  /// other's change of a number, may compact later, and its snapshot will stand for that number.
  /// Re-published with their own clocks, they fold as they would have; what the other copy's
  /// files do hold folds again to the same state (each field goes to its newest stamp, a delete
  /// stays a delete, a merge of identities is for good), so re-publishing more than was left out
  /// costs files, not data. The joined snapshot claims to cover nothing of the old id, whose
  /// numbers two copies wrote: the old id's change files are folded whatever it holds.
  /// Everything is durable before the new id is recorded: a crash in between leaves the files of
  /// a device that never writes again, and the next merge, under the old id still, re-publishes
  /// them once more.
  func takeNewDeviceID(leaving old: DeviceID, _ state: inout StoreState, _ files: StoreFiles) throws -> (changes: [ChangeFile], snapshot: ChangeSnapshot?) {
    let new = DeviceID.mint()
    var republished: [ChangeFile] = []
    for change in try files.changes.changes(of: old) {
      var copy = change
      copy.device = new
      copy.sequence = republished.count + 1
      try files.changes.write(copy)
      republished.append(copy)
    }
    var joined: ChangeSnapshot?
    let snapshots = try files.changes.snapshots(of: old)
    if let newest = snapshots.map(\.hlc).max() {
      var merged = MergedState(schema: mergeSchema)
      for snapshot in snapshots { merged.apply(snapshot) }
      var snapshot = merged.snapshot(device: new, number: 1, hlc: newest, schemaVersion: schema.version)
      snapshot.covers[old] = nil
      guard try files.changes.create(snapshot) else {
        throw StoreError(.damaged, path: files.changes.display(new, snapshot.fileName), "already exists under a device id just taken.")
      }
      joined = snapshot
    }
    _ = try mintDevice(&state, files, preferred: new)
    return (republished, joined)
  }
}
