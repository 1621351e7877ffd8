import Foundation
import PlainStore

/// Whether the phones are in step, in a parent's words: syncing on or off (and why, and what to
/// do), what waits on this phone to be sent, what waits to be downloaded, and the last change
/// that arrived from another phone. What `babydash sync status` prints first, and what the
/// app's sync screen can show.
public enum SyncStatusText {
  /// The lines, each a label padded to the width of "Last arrival" and its words.
  public static func lines(_ status: SyncStatus, now: Date, in zone: TimeZone) -> [String] {
    var lines = [
      "Syncing      " + syncing(status.carrier),
      "To send      " + outbox(status, now: now, in: zone),
    ]
    if let blocked = status.outboxBlocked { lines.append("             not sent: " + blocked) }
    if let note = status.carrierNote { lines.append("             " + note) }
    let downloads = status.waitingForDownload.count
    lines.append(
      "To download  "
        + (downloads == 0 ? "nothing" : "\(downloads) file\(downloads == 1 ? "" : "s") in iCloud, asked for; their changes show once downloaded"))
    lines.append("Last arrival " + lastArrival(status, now: now, in: zone))
    return lines
  }

  /// Whether changes travel, and if not, why and what to do.
  public static func syncing(_ carrier: SyncStatus.Carrier) -> String {
    let meanwhile = "changes made here wait on this phone meanwhile, and go as soon as it syncs."
    switch carrier {
    case .available:
      return "on"
    case .unavailable(.signedOut):
      return "off — this phone is signed out of iCloud: sign in (Settings, your name) to sync; " + meanwhile
    case .unavailable(.driveOff):
      return "off — iCloud Drive is off for this app: turn it on (Settings, your name, iCloud, iCloud Drive) to sync; " + meanwhile
    case .unavailable(.signedOutOrDriveOff):
      return "off — this phone is signed out of iCloud, or iCloud Drive is off for this app: check Settings, your name, "
        + "iCloud, iCloud Drive; " + meanwhile
    case .unavailable(.accountUnreadable(let why)):
      return "stopped — the iCloud account cannot be told from another (\(why)); nothing is mixed: " + meanwhile
    case .unavailable(.notResolvedYet):
      return "starting — iCloud is not ready yet; " + meanwhile
    case .unavailable(.unknown):
      return "off — the sync folder cannot be reached; " + meanwhile
    case .accountChanged:
      return "stopped — this phone is signed in to another iCloud account than the one it synced with. "
        + "Nothing is mixed: this phone keeps its data and its new changes wait here. "
        + "Sign in again to the account it synced with to sync."
    }
  }

  /// "nothing" or "2 changes, the oldest from 07:02".
  public static func outbox(_ status: SyncStatus, now: Date, in zone: TimeZone) -> String {
    let count = status.outbox.count
    guard count > 0 else { return "nothing" }
    let oldest = status.outboxOldest.map { ", the oldest from " + TimeText.typable($0, now: now, in: zone) } ?? ""
    return "\(count) change\(count == 1 ? "" : "s") waiting on this phone\(oldest)"
  }

  /// "from Dad's phone, written 07:31", or why there is none to tell.
  public static func lastArrival(_ status: SyncStatus, now: Date, in zone: TimeZone) -> String {
    guard status.carrier == .available else { return "not known while syncing is off" }
    guard let arrival = status.lastArrival else { return "nothing from another phone yet" }
    return "from \(arrival.device), written \(TimeText.typable(arrival.written, now: now, in: zone))"
  }
}
