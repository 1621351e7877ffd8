import Foundation

extension ChangeFolder {
  func scanDevice(
    _ device: DeviceID, names: [String], notDownloaded placeholders: [String], inOutbox: Set<String>, isOwn: Bool,
    known: (DeviceID, Int) -> Bool, into scan: inout ChangeScan
  ) throws {
    let covered = scan.covered[device] ?? 0
    var sequences: Set<Int> = []  // present above `covered`
    var newestNamed = covered  // arrived or not: the name alone says the change exists
    var copied: Set<Int> = []  // sequences with a conflict copy: read even when known
    var notDownloaded: Set<Int> = []  // above `covered`: they exist, whole, elsewhere
    var newer: Set<Int> = []  // of a newer format: there, whole, kept for this program's update
    for name in placeholders {
      guard case .change(let sequence) = ChangeFileName.classify(name).kind else { continue }
      newestNamed = max(newestNamed, sequence)
      guard sequence > covered else { continue }  // a snapshot holds it: nothing waits for it
      notDownloaded.insert(sequence)
      scan.notDownloaded.append(display(device, name))
      scan.notDownloadedSequences[device, default: []].insert(sequence)
      if !known(device, sequence) { transport.requestDownload(atPath: filePath(device, name)) }
    }
    for name in names {
      guard case (.change(let sequence), let isCopy) = ChangeFileName.classify(name) else { continue }
      newestNamed = max(newestNamed, sequence)
      if isCopy { copied.insert(sequence) }
    }
    var readBySequence: [Int: [ChangeFile]] = [:]
    for name in names {
      let (kind, isCopy) = ChangeFileName.classify(name)
      let waits = inOutbox.contains(name)
      let path = waits ? outbox.display(device, name) : display(device, name)
      switch kind {
      case .artefact:
        scan.artefactsSkipped += 1
      case .unknown:
        scan.unknown.append(path)
      case .deviceInfo, .reads, .renamed:
        if isCopy { scan.conflictCopies += 1 }
      case .snapshot:
        break  // read above
      case .change(let sequence):
        // The newest is read even when covered: its clock is the device's last sign of life.
        if !copied.contains(sequence) && (known(device, sequence) || (sequence <= covered && sequence != newestNamed)) {
          if sequence > covered { sequences.insert(sequence) }
          if isCopy { scan.conflictCopies += 1 }
          continue
        }
        switch try read(waits ? outbox.filePath(device, name) : filePath(device, name), path: path, inOutbox: waits) {
        case .success(let change) where change.device == device && change.sequence == sequence:
          if isCopy { scan.conflictCopies += 1 }
          if sequence > covered { sequences.insert(sequence) }
          scan.lastActive[device] = max(scan.lastActive[device] ?? 0, change.hlc)
          // A copy repeats its original; one that differs is a second writer under this id
          // (its stamp may even be the same), and both changes count.
          let others = readBySequence[sequence, default: []]
          guard !others.contains(change) else { continue }
          if !others.isEmpty { scan.divergent.formUnion(others.map(\.stamp) + [change.stamp]) }
          readBySequence[sequence, default: []].append(change)
          // A snapshot stands for every change it covers, whatever file now holds the name
          // (another copy's change under it is not in the snapshot, and is not folded either):
          // read for its clock and time, a covered change is never folded, so that a cache
          // that skipped it as covered and a rebuild that read it agree.
          if sequence <= covered {
            if change.sequence >= (scan.newestCovered[device]?.sequence ?? 0) { scan.newestCovered[device] = change }
            continue
          }
          scan.files.append(change)
        case .success:
          if isOwn && !isCopy { throw Self.ownDamaged(path, "its contents belong to another name or device") }
          scan.notArrived.append(path)
        case .failure(.newerFormat(let format)):
          // Whole, and no damage, this device's own included (an older program restored over a
          // newer one's store): never folded, so never acknowledged, and read once updated.
          if sequence > covered { newer.insert(sequence) }
          scan.newerFormat.append((path, device, format))
        case .failure(let failure):
          if isOwn && !isCopy { throw Self.ownDamaged(path, Self.describe(failure)) }
          scan.notArrived.append(path)
        }
      }
    }
    let missing = newestNamed - covered - sequences.union(notDownloaded).union(newer).count
    if missing > 0 { scan.waiting[device] = missing }
    scan.lastSequence[device] = max(covered, sequences.max() ?? 0)
  }

  func read(_ file: String, path: String, inOutbox: Bool) throws -> Result<ChangeFile, ChangeFileCodec.Failure> {
    let bytes = inOutbox ? try FileSystem.read(atPath: file, displayPath: path) : try transport.read(atPath: file, displayPath: path)
    guard let data = bytes else { return .failure(.incomplete) }
    return ChangeFileCodec.decode(data, reads: reads)
  }

  static func ownDamaged(_ path: String, _ reason: String) -> StoreError {
    StoreError(
      .damaged, path: path,
      "this device's own change file is damaged (\(reason)) — restore it from a backup or from another device's copy of changes/; the store was left untouched.")
  }

  static func describe(_ failure: ChangeFileCodec.Failure) -> String {
    switch failure {
    case .incomplete: "incomplete or truncated"
    case .checksumMismatch: "its checksum does not match its contents"
    case .newerFormat(let format): "written in change-file format \(format), newer than this program reads"
    case .unreadable(let reason): reason
    }
  }
}
