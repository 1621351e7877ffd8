import Foundation

/// What one reading of `changes/` found.
struct ChangeScan: Sendable {
  /// The complete change files not already known, by stamp.
  var files: [ChangeFile] = []
  /// Conflict copies read (or recognised as repeats of a file already read).
  var conflictCopies = 0
  /// Sync engines' temporary files, placeholders and the like.
  var artefactsSkipped = 0
  /// Other devices' files that are incomplete or damaged: read again next time.
  var notArrived: [String] = []
  /// Files of any device, this one's included, that a placeholder stands for: whole in the
  /// cloud, not downloaded here (display paths of the files themselves). Never damage, never
  /// lost; read once downloaded.
  var notDownloaded: [String] = []
  /// Per device, the sequences of its change files that are not downloaded (above what its
  /// snapshots cover).
  var notDownloadedSequences: [DeviceID: Set<Int>] = [:]
  /// Per device, the numbers of its snapshots that are not downloaded.
  var notDownloadedSnapshots: [DeviceID: Set<Int>] = [:]
  /// Names the store did not write and does not know: left alone.
  var unknown: [String] = []
  /// Per device, how many of its changes below its newest are missing: "waiting for N changes".
  var waiting: [DeviceID: Int] = [:]
  /// Per device, its newest sequence seen.
  var lastSequence: [DeviceID: Int] = [:]
  /// Every device with a folder.
  var devices: Set<DeviceID> = []
  /// Changes that share a device and a sequence with a different change: two copies of one
  /// device's store (a restored backup, a copied folder) that both wrote under its id.
  var divergent: Set<ChangeStamp> = []
  /// Snapshots that share their device and number with another: two copies of one device's
  /// store that both compacted before either saw the other's. Every version counts (a
  /// snapshot folds in as a join, like its changes), each told apart by its stamp.
  var divergentSnapshots: Set<ChangeStamp> = []
  /// Files written in a newer change-file format than the reader reads, by display path, with
  /// their device and format: kept, never folded, read once the reader is updated.
  var newerFormat: [(path: String, device: DeviceID, format: Int)] = []
  /// Snapshots of a newer schema version than the reader's: they wait for its update.
  var snapshotsAwaitingUpdate: [String] = []
  /// Every readable snapshot, by device and number.
  var snapshots: [ChangeSnapshot] = []
  /// Per device, the highest sequence some snapshot covers: its changes up to there are in
  /// the snapshots, whether their files are still there or not.
  var covered: [DeviceID: Int] = [:]
  /// Per device, the newest clock stamp of its files read: when it was last active.
  var lastActive: [DeviceID: UInt64] = [:]
  /// Per device, its newest change file read that a snapshot covers: read for its clock and
  /// time alone, never folded (the snapshot stands for it).
  var newestCovered: [DeviceID: ChangeFile] = [:]

  /// What the snapshots cover beyond `folded`: per device, the highest sequence covered, with
  /// the clock of the newest snapshot that covers it.
  func coverage(notIn folded: FoldedChanges) -> [ChangeStamp] {
    var newest: [DeviceID: ChangeStamp] = [:]
    for snapshot in snapshots {
      for (device, through) in snapshot.covers where through > (newest[device]?.sequence ?? 0) {
        newest[device] = ChangeStamp(hlc: snapshot.hlc, device: device, sequence: through)
      }
    }
    return newest.values.filter { !folded.contains(device: $0.device, through: $0.sequence) }.sorted()
  }
}
