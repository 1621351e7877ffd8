import Foundation
import PlainStore

/// The backout of Phase B/C that loses nothing: the cutover is marked when the import completes;
/// from then on the store keeps its history for the backout (a named ``HistoryReader``), and
/// turning the importer off hands back what changed since, as one ``BackoutHandback``.
///
/// ```swift
/// if let handback = try MigrationBackout.handback(from: container) {
///   try applier.apply(handback)                                   // SwiftData's own API
///   try MigrationBackout.confirm(handback, in: container, keyValueStore: keyValues)
/// }
/// ```
/// Confirming marks the history handed back and removes `migrationCompleted`, so that turning
/// the importer on again imports the SwiftData store again: what the store already holds is
/// skipped by its unique keys, so nothing is duplicated.
public enum MigrationBackout {
  /// The history reader that keeps what the backout has not handed back.
  public static let readerName = "backout"

  /// The key in the app group's ``KeyValueStore`` that says this phone cut over: the launch step
  /// opens the store for a backout only then.
  public static let cutoverKey = "migrationCutover"

  /// Marks the cutover at the store's current history, unless it is marked already.
  public static func markCutover(in container: StoreContainer, keyValueStore: any KeyValueStore) throws {
    let reader = container.historyReader(named: readerName)
    if try reader.token() == nil { try reader.markConsumed(through: container.currentToken) }
    if try keyValueStore.data(forKey: cutoverKey) == nil {
      try keyValueStore.set(try JSONEncoder().encode(container.currentToken.sequence), forKey: cutoverKey)
    }
  }

  /// Whether the cutover is marked.
  public static func isCutOver(_ container: StoreContainer) throws -> Bool {
    try container.historyReader(named: readerName).token() != nil
  }

  /// What changed in the store since the cutover (or the last confirmed handback), or `nil`
  /// when no cutover is marked. Empty when nothing changed.
  ///
  /// - Throws: `StoreError` from the store, `.historyPruned` when the history was pruned past
  ///   the cutover (then the whole store must be handed back; this version does not).
  public static func handback(from container: StoreContainer) throws -> BackoutHandback? {
    let reader = container.historyReader(named: readerName)
    guard let start = try reader.token() else { return nil }
    let transactions = try reader.pending()
    let through = transactions.last?.token ?? start
    // Every id touched, each once, in the order first touched.
    var touched: [String: [UUID]] = [:]
    var seen = Set<UUID>()
    for transaction in transactions {
      for entity in transaction.changes.keys.sorted() {
        let changes = transaction.changes[entity]!
        for id in changes.inserted + changes.updated + changes.deleted where seen.insert(id).inserted {
          touched[entity, default: []].append(id)
        }
      }
    }
    let context = container.newBackgroundContext()
    var upserts: [BackoutHandback.Change] = []
    var deletions: [String: [BackoutHandback.Change]] = [:]
    for id in touched[BabyProfile.entityName] ?? [] {
      if let baby = try context.object(BabyProfile.self, id: id) {
        upserts.append(.babyProfile(id: id, LegacyBabyProfile(id: baby.id, name: baby.name, feedTerm: baby.feedTerm)))
      } else {
        deletions[BabyProfile.entityName, default: []].append(.deleted(entity: BabyProfile.entityName, id: id))
      }
    }
    for id in touched[FeedSession.entityName] ?? [] {
      if let feed = try context.object(FeedSession.self, id: id) {
        upserts.append(
          .feedSession(
            id: id,
            LegacyFeedSession(
              profileID: feed.profileID, startTime: feed.startTime, endTime: feed.endTime, amountValue: feed.amountValue,
              amountUnitSymbol: feed.amountUnitSymbol, memoText: feed.memoText)))
      } else {
        deletions[FeedSession.entityName, default: []].append(.deleted(entity: FeedSession.entityName, id: id))
      }
    }
    for id in touched[DiaperChange.entityName] ?? [] {
      if let diaper = try context.object(DiaperChange.self, id: id) {
        upserts.append(.diaperChange(id: id, LegacyDiaperChange(profileID: diaper.profileID, timestamp: diaper.timestamp, type: diaper.type)))
      } else {
        deletions[DiaperChange.entityName, default: []].append(.deleted(entity: DiaperChange.entityName, id: id))
      }
    }
    let order = [FeedSession.entityName, DiaperChange.entityName, BabyProfile.entityName]
    return BackoutHandback(changes: upserts + order.flatMap { deletions[$0] ?? [] }, through: through)
  }

  /// Records that the app applied `handback` to its SwiftData store: its history is handed
  /// back, and `migrationCompleted` is removed so that the import runs again once the importer
  /// is on again.
  public static func confirm(_ handback: BackoutHandback, in container: StoreContainer, keyValueStore: any KeyValueStore) throws {
    try confirm(through: handback.through, in: container, keyValueStore: keyValueStore)
  }

  /// Records that the app applied the handback that covers the history through `token`.
  public static func confirm(through token: HistoryToken, in container: StoreContainer, keyValueStore: any KeyValueStore) throws {
    try container.historyReader(named: readerName).markConsumed(through: token)
    try MigrationRecord.remove(from: keyValueStore)
  }
}
