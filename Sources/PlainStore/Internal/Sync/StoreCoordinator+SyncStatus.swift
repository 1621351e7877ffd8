import Foundation

extension StoreCoordinator {
  /// A device whose stamps run this far ahead of this device's clock is named in the status.
  static let clockAheadLimit: TimeInterval = 86_400

  /// What `changes/` holds and waits for, read from the folder now.
  /// While the carrier is not there, only the outbox is read.
  func syncStatus() throws -> SyncStatus? {
    try backing.syncStatus(self)
  }

  /// The sync status read from the files.
  func syncStatus(_ files: StoreFiles) throws -> SyncStatus? {
    let carrier = files.changes.carrier()
    let device = deviceID
    let scan = try files.changes.scan(own: device, readableSchema: schema.version)
    var newest = scan.newestCovered
    for file in scan.files where file.sequence >= (newest[file.device]?.sequence ?? 0) { newest[file.device] = file }
    var snapshots: [DeviceID: ChangeSnapshot] = [:]
    for snapshot in scan.snapshots where snapshot.number >= (snapshots[snapshot.device]?.number ?? 0) { snapshots[snapshot.device] = snapshot }
    let folded = state.withLock { $0.folded }
    var waitingForDownload: [String] = []
    for (id, sequences) in scan.notDownloadedSequences {
      for sequence in sequences where !folded.contains(device: id, sequence: sequence) {
        waitingForDownload.append(files.changes.display(id, ChangeFileName.changeName(sequence: sequence)))
      }
    }
    for (id, numbers) in scan.notDownloadedSnapshots {
      for number in numbers where !folded.contains(snapshot: number, of: id) {
        waitingForDownload.append(files.changes.display(id, ChangeFileName.snapshotName(number: number)))
      }
    }
    let now = options.clock()
    let ready = try files.changes.scan(own: device, readableSchema: schema.version, known: state.withLock { $0.folded })
    var readyToMerge: [DeviceID: Int] = [:]
    for file in ready.files where file.schemaVersion <= schema.version { readyToMerge[file.device, default: 0] += 1 }
    let devices = scan.devices.sorted { ($0 == device ? 0 : 1, $0.text) < ($1 == device ? 0 : 1, $1.text) }.map { id in
      let lastActive = scan.lastActive[id].map(HybridLogicalClock.date(of:))
      return SyncStatus.Device(
        id: id.text, name: files.changes.deviceName(id), isThisDevice: id == device,
        lastSequence: scan.lastSequence[id] ?? 0, lastChange: newest[id]?.timestamp ?? lastActive, waiting: scan.waiting[id] ?? 0,
        snapshot: snapshots[id]?.number, acknowledgesThisDeviceThrough: device.flatMap { snapshots[id]?.covers[$0] },
        isInactive: id != device && lastActive.map { now.timeIntervalSince($0) > options.inactiveDeviceInterval } ?? false,
        clockAhead: lastActive.map { $0.timeIntervalSince(now) }.flatMap { $0 > Self.clockAheadLimit ? $0 : nil },
        readyToMerge: readyToMerge[id] ?? 0)
    }
    let outbox = files.changes.outbox
    var waiting: [(display: String, path: String)] = []
    for id in outbox.devices() {
      for name in outbox.names(of: id) where name != "device.json" { waiting.append((outbox.display(id, name), outbox.filePath(id, name))) }
    }
    let oldest = try waiting.first.flatMap { try FileSystem.read(atPath: $0.path, displayPath: $0.display) }.flatMap {
      try? ChangeFileCodec.decode($0, reads: files.changes.reads).get().timestamp
    }
    let ownIDs = Set(outbox.devices().map(\.text))  // an older id of this copy's is no arrival
    let arrival = devices.filter { !$0.isThisDevice && !ownIDs.contains($0.id) }.compactMap { device in
      device.lastChange.map { SyncStatus.Arrival(device: device.name.isEmpty ? String(device.id.prefix(8)) : device.name, written: $0) }
    }.max { $0.written < $1.written }
    return SyncStatus(
      carrier: carrier, outbox: waiting.map(\.display), outboxOldest: oldest,
      outboxBlocked: carrier == .available ? state.withLock { $0.outboxBlocked } : nil,
      carrierNote: files.changes.transport.note(files.changes), lastArrival: arrival,
      thisDevice: device?.text, folder: files.changes.url, devices: devices, notArrived: scan.notArrived, notDownloaded: scan.notDownloaded.sorted(), waitingForDownload: waitingForDownload.sorted(), unknownFiles: scan.unknown,
      artefactsSkipped: scan.artefactsSkipped, conflictCopies: scan.conflictCopies, awaitingUpdate: awaitingUpdate(scan, files))
  }
}
