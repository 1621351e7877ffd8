import Foundation

/// `cloudkit-state.json` beside `changes/` (in the app group, never in `local/`): what the
/// CloudKit carrier must remember between syncs. Written atomically, and only after the files
/// fetched before it are durable, so a kill between the two leaves the older state, which
/// fetches the same records again — and a create-once file met twice is written once.
///
/// Losing it costs time, never data: a missing or unreadable state fetches from the beginning
/// and offers the server every file again (the server's equal bytes are success).
struct CloudSyncState: Equatable, Sendable {
  /// The engine's state after the last fetched batch whose files are durable here.
  var engineState: Data?
  /// Names the server is known to hold (sent from here, or fetched): not sent again.
  var onServer: Set<String> = []
  /// Names whose records are gone from the server: this device's own, deleted from here after a
  /// change compaction deleted their files, and any whose deletion a fetch reported. Never sent
  /// again (another phone's file kept here would undo its owner's deletion), and a record of this
  /// device's own id among them is not written back. Kept when the server is forgotten: it says
  /// what this device compacted away, whatever zone comes next.
  var deleted: Set<String> = []
  /// Why the last sync stopped short; nil when it went through.
  var condition: CloudCondition?
  /// No request before this time (the server's retry-after).
  var waitUntil: Date?
  /// The user deleted the app's data from iCloud: nothing is sent until the account signs in
  /// again (the zone deletion said `purged`, or a request `userDeletedZone`).
  var stopped = false
  /// The zone synced: this account's own, or the one another account shares with it. The
  /// engine state and `onServer` are this zone's; another zone starts from no token.
  var zone: CloudZone = .own
  /// The accounts this account's own zone is shared with (the owner's side).
  var participants: [String] = []
  /// The share that last ended for this account, and why: reported until another is accepted.
  var shareEnded: SharingEnd?

  struct SharingEnd: Codable, Equatable, Sendable {
    var owner: String
    var reason: CloudShareEnd
  }

  /// Where the family's sharing stands, in words (`sync status`); nil when nothing is shared.
  var sharingWords: String? {
    if case .sharedBy(let owner) = zone { return "syncing the family \(owner) shares with this account" }
    if !participants.isEmpty { return "this family is shared with " + participants.joined(separator: ", ") }
    guard let shareEnded else { return nil }
    let what = shareEnded.reason == .left ? "this account left the family \(shareEnded.owner) shares" : "\(shareEnded.owner) stopped sharing the family"
    return what + "; every change stays on this device, and this account's own iCloud carries them"
  }

  static func url(beside changes: URL) -> URL {
    changes.deletingLastPathComponent().appendingPathComponent("cloudkit-state.json")
  }

  /// The state saved at `url`; a fresh one when there is none or it does not read.
  static func load(_ url: URL) -> CloudSyncState {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    guard let data = try? FileSystem.read(url, displayPath: url.lastPathComponent),
      let stored = try? decoder.decode(Stored.self, from: data), stored.format == Stored.currentFormat
    else { return CloudSyncState() }
    return CloudSyncState(
      engineState: stored.engineState, onServer: Set(stored.onServer), deleted: Set(stored.deleted ?? []), condition: stored.condition, waitUntil: stored.waitUntil,
      stopped: stored.stopped, zone: stored.zone ?? .own, participants: stored.participants ?? [], shareEnded: stored.shareEnded)
  }

  /// Replaces the file at `url`, durably.
  func save(_ url: URL) throws {
    let stored = Stored(
      format: Stored.currentFormat, engineState: engineState, onServer: onServer.sorted(), deleted: deleted.sorted(), condition: condition, waitUntil: waitUntil,
      stopped: stopped, zone: zone == .own ? nil : zone, participants: participants.isEmpty ? nil : participants, shareEnded: shareEnded)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .secondsSince1970
    try FileSystem.writeAtomically(try encoder.encode(stored), to: url, displayPath: url.lastPathComponent)
  }

  /// Forgets the server: fetch from the beginning and offer it every file (after the zone or the
  /// account changed under the engine).
  mutating func forgetServer() {
    engineState = nil
    onServer = []
  }

  /// The record `name` is gone from the server (deleted from here, or a fetch said so).
  mutating func forget(_ name: String) {
    onServer.remove(name)
    deleted.insert(name)
  }

  private struct Stored: Codable {
    static let currentFormat = 1
    var format: Int
    var engineState: Data?
    var onServer: [String]
    /// Absent in a state saved before deletions were sent: none.
    var deleted: [String]?
    var condition: CloudCondition?
    var waitUntil: Date?
    var stopped: Bool
    /// Absent in a state saved before sharing, or of the own zone: the own zone.
    var zone: CloudZone?
    /// Absent: shared with no one.
    var participants: [String]?
    var shareEnded: SharingEnd?
  }
}
