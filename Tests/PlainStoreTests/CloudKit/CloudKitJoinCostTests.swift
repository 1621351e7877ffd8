import BabyDashboardTesting
import Foundation
import PlainStoreTesting
import Testing

@testable import PlainStore

/// Joining costs the live data, not the history (issue #56, item 5): a writer makes `size` live
/// objects, with and without `size` objects made and deleted before, compacts, syncs; a new
/// phone joins through the simulated CloudKit. Both joins fetch the same records — the
/// writer's device.json and snapshot, none of the history — and far fewer bytes than the history
/// on the server would have cost; the bytes and times are printed, not asserted to be within
/// 10 % (a shared machine's times are noise). They are not within 10 % yet: the snapshot keeps
/// each deleted object's tombstone (its created and deleted stamps, about 340 bytes in JSON),
/// which the fold needs to be a pure function of the files, so the deleted objects still cost
/// their tombstones' bytes and decoding.
///
/// `JOIN_COST_OBJECTS=50000 swift test -c release --filter CloudKitJoinCostTests` measures more.
@Suite struct CloudKitJoinCostTests {
  static let size = ProcessInfo.processInfo.environment["JOIN_COST_OBJECTS"].flatMap(Int.init) ?? 5_000

  /// What one join cost.
  struct Join: Sendable, CustomStringConvertible {
    var records: Int
    var bytes: Int
    var milliseconds: Double
    var objects: Int
    /// Records on the server after the writer's last sync.
    var onServer: Int
    /// What the server would hold without record deletions: every file the writer ever synced.
    var history: (records: Int, bytes: Int)

    var description: String {
      "\(records) records, \(bytes) bytes fetched, \(String(format: "%.0f", milliseconds)) ms, \(objects) objects"
        + " (without record deletions: \(history.records) records, \(history.bytes) bytes)"
    }
  }

  @Test func joiningAfterAsManyDeletionsFetchesWhatJoiningWithoutFetches() async throws {
    let (clean, history) = try await onOwnThread(computing: true) {
      (try Self.join(live: Self.size, deletedBefore: 0), try Self.join(live: Self.size, deletedBefore: Self.size))
    }
    print("join of \(Self.size) live objects, none deleted before: \(clean)")
    print("join of \(Self.size) live objects, \(Self.size) deleted before: \(history)")
    print("join time ratio (with / without deletions): \(String(format: "%.3f", history.milliseconds / clean.milliseconds))")
    #expect(clean.objects == Self.size && history.objects == Self.size)
    #expect(history.records == clean.records, "the same records: device.json, the snapshot, what came after")
    #expect(history.onServer == clean.onServer, "the history's records were deleted")
    #expect(history.bytes < history.history.bytes, "less than the history would have cost")
    print("bytes ratio (with / without deletions): \(String(format: "%.3f", Double(history.bytes) / Double(clean.bytes)))")
  }

  /// A writer's `live` objects after `deletedBefore` were made and deleted, in commits of 500,
  /// compacted and synced; then a phone joins. What the join fetched and took.
  static func join(live: Int, deletedBefore: Int) throws -> Join {
    let family = try CloudFamily()
    defer { family.remove() }
    let writer = try family.open(1)
    func commit(_ ids: Range<Int>, _ body: (StoreContext, Int) -> Void) throws {
      for start in stride(from: ids.lowerBound, to: ids.upperBound, by: 500) {
        let context = writer.newBackgroundContext()
        for id in start..<min(start + 500, ids.upperBound) { body(context, id) }
        try context.save()
      }
    }
    let deleted = (live + 1)..<(live + 1 + deletedBefore)
    try commit(deleted) { context, id in context.insert(Owner(id: Sample.id(id), name: "Gone \(id)")) }
    try commit(deleted) { context, id in context.delete(Owner.self, id: Sample.id(id)) }
    try commit(1..<(live + 1)) { context, id in context.insert(Owner(id: Sample.id(id), name: "Baby \(id)")) }
    try writer.sync()
    var synced = try family.files(1)
    _ = try writer.compactChanges()
    try writer.sync()
    synced.merge(try family.files(1)) { first, _ in first }
    let onServer = family.cloud.recordNames(of: "family").count

    let before = family.cloud.fetched
    let started = ContinuousClock.now
    let phone = try family.joined(2)
    let took = ContinuousClock.now - started
    let after = family.cloud.fetched
    let milliseconds = Double(took.components.seconds) * 1_000 + Double(took.components.attoseconds) / 1e15
    return Join(
      records: after.records - before.records, bytes: after.bytes - before.bytes, milliseconds: milliseconds,
      objects: try phone.newBackgroundContext().fetch(FetchDescriptor<Owner>()).count, onServer: onServer,
      history: (synced.count, synced.values.reduce(0) { $0 + $1.count }))
  }
}
