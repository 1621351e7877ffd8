import BabyDashboardText
import Foundation
import PlainStore

/// `babydash sync status`, `sync now` and `sync compact`: the change files a family's devices
/// share through Syncthing, iCloud Drive or Dropbox.
enum SyncCommands {
  static let all = [status, now, join, compact]

  static let status = Command(
    words: ["sync", "status"], synopsis: "",
    summary: "Show this device, every device that writes to the store, and what is still on its way.",
    details: """
      Every command merges what has arrived before it reads or writes; this one only looks.

      Example:
        babydash sync status
      """
  ) { invocation in
    let session = invocation.session
    if let forgotten = session.forgottenSyncFolder {
      try invocation.output.print(
        "Not syncing: no sync folder given (last used \(forgotten)): give --sync-folder or set BABYDASH_SYNC_FOLDER.")
      return
    }
    // Only looks: a phone that has only other devices' changes gets no store from a status.
    let storeFolder = (try? FileManager.default.contentsOfDirectory(atPath: session.storeDirectory.path)) ?? []
    if storeFolder.isEmpty && session.storeExists, let folder = session.syncFolder {
      try invocation.output.print(
        "No store here yet at \(session.storeDirectory.path); \(folder.path) holds other devices' changes: "
          + "`babydash sync now` (or any other command) merges them.")
      return
    }
    guard session.storeExists, case let container = try session.store(merging: false), let status = try container.syncStatus() else {
      try invocation.output.print("No store yet at \(session.storeDirectory.path): nothing to sync.")
      return
    }
    try invocation.output.print(text(status, now: session.now, zone: session.timeZone))
    let ahead = try session.eventsAheadLines(in: container)
    if !ahead.isEmpty {
      try invocation.output.print("\nDated ahead of this device's clock (merged: the data is the family's):\n" + ahead.map { "  " + $0 }.joined(separator: "\n"))
    }
  }

  static let now = Command(
    words: ["sync", "now"], synopsis: "",
    summary: "Merge the change files that other devices wrote and print what changed.",
    details: "Example:\n  babydash --sync-folder ~/Sync/BabyDashboard sync now"
  ) { invocation in
    let session = invocation.session
    // Opening merges what has arrived (creating the store on a device that joins: its
    // changes/ came from the others); a second look catches what arrived meanwhile.
    let container = try session.store()
    let merged = try container.sync()
    if merged != nil { try session.followArrivals() }
    try session.rememberSyncFolder()
    let files = container.statistics.changeFilesMerged
    if files == 0 {
      try invocation.output.print("Up to date: nothing new to merge.")
    } else {
      try invocation.output.print("Merged \(files) change file\(files == 1 ? "" : "s").")
      if let line = try session.mergeReportLine() { try invocation.output.print(line) }
    }
    if let status = try container.syncStatus() {
      let waiting = status.devices.filter { $0.waiting > 0 }
      for device in waiting { try invocation.output.print("Waiting for \(device.waiting) change\(device.waiting == 1 ? "" : "s") from \(label(device)).") }
    }
  }

  static let join = Command(
    words: ["sync", "join"], synopsis: "",
    summary: "Start syncing through the sync folder (created if missing) and merge what the other devices wrote.",
    details: """
      The only command that creates a sync folder that does not exist (with --create for any
      other): every other command refuses a missing one, so that a typo never syncs to nowhere.

      Example:
        babydash --sync-folder ~/Sync/BabyDashboard sync join
      """
  ) { invocation in
    let session = invocation.session
    guard let folder = session.syncFolder else {
      throw invocation.usageError("'sync join' needs a sync folder: give --sync-folder DIR or set BABYDASH_SYNC_FOLDER")
    }
    do {
      try DurableFile.makeFolders(folder)
    } catch let error as StoreError {
      throw CommandLineError(kind: .io, message: "cannot create the sync folder '\(folder.path)': \(error.detail)")
    }
    let container = try session.store()
    _ = try container.sync()
    try session.followArrivals()
    try session.rememberSyncFolder()
    let files = container.statistics.changeFilesMerged
    try invocation.output.print(
      "Syncing through \(folder.path)" + (files == 0 ? "; nothing from other devices yet." : "; merged \(files) change file\(files == 1 ? "" : "s")."))
    if let line = try session.mergeReportLine() { try invocation.output.print(line) }
  }

  static let compact = Command(
    words: ["sync", "compact"], synopsis: "",
    summary: "Write a snapshot of this device's view and delete its own change files every device has.",
    details: """
      A snapshot is also this device's acknowledgement of every change it holds. A device deletes
      only its own change files, and only those that every active device's snapshot covers; a
      device silent for 90 days no longer holds them back. Commits do this on their own every
      1000 changes of this device.

      Example:
        babydash --sync-folder ~/Sync/BabyDashboard sync compact
      """
  ) { invocation in
    let session = invocation.session
    guard session.storeExists, let report = try session.store().compactChanges() else {
      try invocation.output.print("No store yet at \(session.storeDirectory.path): nothing to compact.")
      return
    }
    try invocation.output.print(report.snapshotWritten.map { "Wrote \($0)." } ?? "The newest snapshot already holds everything merged here.")
    let deleted = report.changeFilesDeleted
    try invocation.output.print(
      "Deleted \(deleted) change file\(deleted == 1 ? "" : "s") of this device"
        + (report.snapshotsDeleted > 0 ? " and \(report.snapshotsDeleted) older snapshot\(report.snapshotsDeleted == 1 ? "" : "s")" : "")
        + "; kept \(report.changeFilesKept).")
    // Devices by name, as sync status shows them ("Dad's phone (15a80d70)"), not by a bare id.
    let devices = Dictionary((try session.store().syncStatus()?.devices ?? []).map { ($0.id, label($0)) }, uniquingKeysWith: { first, _ in first })
    func named(_ id: String) -> String { devices[id] ?? String(id.prefix(8)) }
    if !report.waitingFor.isEmpty {
      try invocation.output.print("Kept until acknowledged by: \(report.waitingFor.map(named).joined(separator: ", ")) (they compact or sync later).")
    }
    if !report.inactiveDevices.isEmpty {
      try invocation.output.print("Not waited for (silent over 90 days): \(report.inactiveDevices.map(named).joined(separator: ", ")).")
    }
  }

  static func label(_ device: SyncStatus.Device) -> String {
    let short = String(device.id.prefix(8))
    return device.name.isEmpty ? short : "\(device.name) (\(short))"
  }

  static func text(_ status: SyncStatus, now: Date, zone: TimeZone) -> String {
    var lines = ["This device  \(status.thisDevice.map { String($0.prefix(8)) } ?? "none yet (takes an id at its first change)")"]
    lines.append("Change files \(status.folder.path)")
    lines += SyncStatusText.lines(status, now: now, in: zone)
    lines.append("")
    if status.devices.isEmpty { lines.append("No device has written a change yet.") }
    for device in status.devices {
      var line = "\(device.isThisDevice ? "*" : " ") \(label(device))  change \(device.lastSequence)"
      if let last = device.lastChange { line += ", last \(TimeText.typable(last, now: now, in: zone))" }
      if device.waiting > 0 { line += " — waiting for \(device.waiting) change\(device.waiting == 1 ? "" : "s")" }
      if device.readyToMerge > 0 {
        line += " — \(device.readyToMerge) change\(device.readyToMerge == 1 ? "" : "s") arrived, merged by the next command (or sync now)"
      }
      if let snapshot = device.snapshot {
        line += ", snapshot \(snapshot)"
        if !device.isThisDevice, let through = device.acknowledgesThisDeviceThrough { line += " (has this device's changes up to \(through))" }
      }
      if device.isInactive { line += " — inactive, not waited for" }
      if let ahead = device.clockAhead {
        line += " — its clock runs \(TimeText.duration(ahead)) ahead of this one's: check its date and time"
      }
      lines.append(line)
    }
    if !status.notArrived.isEmpty {
      lines.append("")
      lines.append("Not arrived yet (incomplete, read again next time):")
      lines += status.notArrived.map { "  " + $0 }
    }
    if !status.notDownloaded.isEmpty {
      lines.append("")
      lines.append("Not downloaded here (in the cloud, whole; a placeholder stands for each; read once downloaded):")
      lines += status.notDownloaded.map { "  " + $0 + (status.waitingForDownload.contains($0) ? " — waiting for it: its changes are not shown yet" : "") }
    }
    if !status.awaitingUpdate.isEmpty {
      lines.append("")
      lines.append("Written by a newer version of the app (kept; merged once this one is updated):")
      lines += status.awaitingUpdate.map { "  " + $0 }
    }
    if !status.unknownFiles.isEmpty {
      lines.append("")
      lines.append("Not the store's (left alone):")
      lines += status.unknownFiles.map { "  " + $0 }
    }
    lines.append("")
    lines.append("Skipped \(status.artefactsSkipped) sync-engine file\(status.artefactsSkipped == 1 ? "" : "s"); read \(status.conflictCopies) conflict cop\(status.conflictCopies == 1 ? "y" : "ies") as the changes they copy.")
    return lines.joined(separator: "\n")
  }
}
