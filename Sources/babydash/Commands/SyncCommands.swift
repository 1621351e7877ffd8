import BabyDashboardText
import Foundation
import PlainStore

/// `babydash sync status` and `babydash sync now`: the change files a family's devices share
/// through Syncthing, iCloud Drive or Dropbox.
enum SyncCommands {
  static let all = [status, now]

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
    guard session.storeExists, let status = try session.store().syncStatus() else {
      invocation.output.print("No store yet at \(session.storeDirectory.path): nothing to sync.")
      return
    }
    invocation.output.print(text(status, now: session.now, zone: session.timeZone))
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
    let counts = (merged?.changes ?? [:]).sorted { $0.key < $1.key }.compactMap { entity, changes -> String? in
      let parts = [("added", changes.inserted.count), ("changed", changes.updated.count), ("removed", changes.deleted.count)]
        .filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
      return parts.isEmpty ? nil : "\(entity): " + parts.joined(separator: ", ")
    }
    let files = container.statistics.changeFilesMerged
    if files == 0 {
      invocation.output.print("Up to date: nothing new to merge.")
    } else {
      invocation.output.print("Merged \(files) change file\(files == 1 ? "" : "s")" + (counts.isEmpty ? "." : ": " + counts.joined(separator: "; ") + "."))
    }
    if let status = try container.syncStatus() {
      let waiting = status.devices.filter { $0.waiting > 0 }
      for device in waiting { invocation.output.print("Waiting for \(device.waiting) change\(device.waiting == 1 ? "" : "s") from \(label(device)).") }
    }
  }

  static func label(_ device: SyncStatus.Device) -> String {
    let short = String(device.id.prefix(8))
    return device.name.isEmpty ? short : "\(device.name) (\(short))"
  }

  static func text(_ status: SyncStatus, now: Date, zone: TimeZone) -> String {
    var lines = ["This device  \(status.thisDevice.map { String($0.prefix(8)) } ?? "none yet (takes an id at its first change)")"]
    lines.append("Change files \(status.folder.path)")
    lines.append("")
    if status.devices.isEmpty { lines.append("No device has written a change yet.") }
    for device in status.devices {
      var line = "\(device.isThisDevice ? "*" : " ") \(label(device))  change \(device.lastSequence)"
      if let last = device.lastChange { line += ", last \(TimeText.typable(last, now: now, in: zone))" }
      if device.waiting > 0 { line += " — waiting for \(device.waiting) change\(device.waiting == 1 ? "" : "s")" }
      lines.append(line)
    }
    if !status.notArrived.isEmpty {
      lines.append("")
      lines.append("Not arrived yet (incomplete, read again next time):")
      lines += status.notArrived.map { "  " + $0 }
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
