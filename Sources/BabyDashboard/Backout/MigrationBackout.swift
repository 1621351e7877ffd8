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

  /// The key under which the launch step keeps the digest of the store's truth
  /// (``StoreContainer/truthDigest(ofStoreAt:options:)``) at which it last found nothing to hand
  /// back: while the digest is the same, a launch with the importer off opens nothing.
  public static let nothingToHandBackKey = "backoutNothingToHandBackAt"

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
  /// when this phone never cut over. Empty when nothing changed.
  ///
  /// When the history since then is gone — the local cache was rebuilt, which keeps no history
  /// and no reader, or it was pruned — every object is handed back as it is now
  /// (``BackoutHandback/deletionsKnown`` false): what was deleted since the cutover cannot be
  /// told any more and comes back in SwiftData, and nothing written since is lost.
  public static func handback(from container: StoreContainer, keyValueStore: any KeyValueStore) throws -> BackoutHandback? {
    let reader = container.historyReader(named: readerName)
    let start = try reader.token()
    guard try start != nil || keyValueStore.data(forKey: cutoverKey) != nil else { return nil }
    let rowIDs = try BackoutRowIDs.load(from: keyValueStore)
    let context = container.newBackgroundContext()
    guard let start, let transactions = try sinceCutover(reader) else {
      let everything = [
        BabyProfile.entityName: try context.babies().map(\.id), FeedSession.entityName: try context.allFeeds().map(\.uuid),
        DiaperChange.entityName: try context.fetch(FetchDescriptor<DiaperChange>()).map(\.uuid),
      ]
      return try handback(of: everything, in: context, through: container.currentToken, rowIDs: rowIDs, deletionsKnown: false)
    }
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
    return try handback(
      of: touched, in: context, through: transactions.last?.token ?? start, rowIDs: rowIDs, deletionsKnown: true)
  }

  /// The history since the cutover, or nil when it was pruned.
  private static func sinceCutover(_ reader: HistoryReader) throws -> [Transaction]? {
    do { return try reader.pending() } catch let error as StoreError where error.code == .historyPruned { return nil }
  }

  /// The handback of the objects `touched` (by entity): each as it is now, or deleted.
  private static func handback(
    of touched: [String: [UUID]], in context: StoreContext, through: HistoryToken, rowIDs: BackoutRowIDs, deletionsKnown: Bool
  ) throws -> BackoutHandback {
    var upserts: [BackoutHandback.Change] = []
    var deletions: [String: [BackoutHandback.Change]] = [:]
    var rows: [UUID: UUID] = [:]
    func deleted(_ entity: String, _ id: UUID) {
      rows[id] = rowIDs[id]
      deletions[entity, default: []].append(.deleted(entity: entity, id: id))
    }
    for id in touched[BabyProfile.entityName] ?? [] {
      if let baby = try context.object(BabyProfile.self, id: id) {
        upserts.append(.babyProfile(id: id, LegacyBabyProfile(id: baby.id, name: baby.name, feedTerm: baby.feedTerm)))
      } else {
        deleted(BabyProfile.entityName, id)
      }
    }
    for id in touched[FeedSession.entityName] ?? [] {
      if let feed = try context.object(FeedSession.self, id: id) {
        rows[id] = rowIDs[id]
        upserts.append(
          .feedSession(
            id: id,
            LegacyFeedSession(
              profileID: feed.profileID, startTime: feed.startTime, endTime: feed.endTime, amountValue: feed.amountValue,
              amountUnitSymbol: feed.amountUnitSymbol, memoText: feed.memoText)))
      } else {
        deleted(FeedSession.entityName, id)
      }
    }
    for id in touched[DiaperChange.entityName] ?? [] {
      if let diaper = try context.object(DiaperChange.self, id: id) {
        rows[id] = rowIDs[id]
        upserts.append(.diaperChange(id: id, LegacyDiaperChange(profileID: diaper.profileID, timestamp: diaper.timestamp, type: diaper.type)))
      } else {
        deleted(DiaperChange.entityName, id)
      }
    }
    let order = [FeedSession.entityName, DiaperChange.entityName, BabyProfile.entityName]
    return BackoutHandback(
      changes: upserts + order.flatMap { deletions[$0] ?? [] }, through: through, rowIDs: rows.compactMapValues { $0 },
      deletionsKnown: deletionsKnown)
  }

  /// Records that the app applied `handback` to its SwiftData store: its history is handed
  /// back, and `migrationCompleted` is removed so that the import runs again once the importer
  /// is on again.
  /// It also records the SwiftData row each handed-back feed and diaper change is now found by
  /// (``BackoutRowIDs``), so that a later backout edits that row rather than adding a second.
  public static func confirm(_ handback: BackoutHandback, in container: StoreContainer, keyValueStore: any KeyValueStore) throws {
    var rowIDs = try BackoutRowIDs.load(from: keyValueStore)
    rowIDs.record(handback)
    try rowIDs.save(to: keyValueStore)
    try container.historyReader(named: readerName).markConsumed(through: handback.through)
    try MigrationRecord.remove(from: keyValueStore)
  }
}
