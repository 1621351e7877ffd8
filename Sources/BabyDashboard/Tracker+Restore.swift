import Foundation
import PlainStore

extension Tracker {
  /// What a restore did.
  public struct Restoration: Sendable, Hashable {
    /// Objects written (new, or stored with other values).
    public var written: StoreContentCounts
    /// Objects already stored exactly so.
    public var unchanged: Int
    /// Names more than one baby has after the restore, with their ids: each is addressed by its id.
    public var sharedNames: [String: [UUID]] = [:]
    /// Objects the store had deleted since the backup (or merged into another), restored under
    /// new ids: the old id is gone for good on every device (``PlainStore/StoreContext/isRetired(_:id:)``).
    public var reissued: Int = 0
  }

  /// Restores `backup`: every baby, feed and diaper change with its id and createdAt, and the
  /// cached amounts. Into an empty store this gives back the store the backup was made from;
  /// into a non-empty one it merges by id (the backup's values win), and running it again
  /// changes nothing. An object the store let go of since the backup (deleted, or merged into
  /// another) comes back under a new id derived from its old one (``Restoration/reissued``),
  /// with what refers to it. The whole backup is checked first — names, terms, amounts, times,
  /// references — and written in one save: all or nothing.
  ///
  /// The same-name rule holds (``sharedNames(writing:allowingSameName:)``): a baby may not take
  /// the name of a stored baby the backup does not hold unless `allowingSameName`; babies that
  /// share a name within the backup are restored, and named in ``Restoration/sharedNames``.
  ///
  /// Times ahead of this device's clock (``TrackerRules/isAhead(_:of:)``: a backup made by a
  /// device whose clock was wrong) are refused, every such object named, unless
  /// `allowingFuture`.
  ///
  /// - Throws: ``BackupError`` naming the first object that cannot be restored (every object
  ///   dated ahead of now), ``ScreenModelError/nameInUse(name:babyIDs:)``; nothing is written.
  ///   With `dryRun`, every check runs and what would be written is counted; nothing is.
  @discardableResult
  public func restore(
    _ backup: Backup, source: String, allowingSameName: Bool = false, allowingFuture: Bool = false, dryRun: Bool = false
  ) throws -> Restoration {
    func date(_ text: String, _ what: String, stored: Date? = nil) throws -> Date {
      guard let date = ISO8601.parse(text) else { throw BackupError(source: source, detail: "\(what): '\(text)' is not an ISO 8601 time with a zone") }
      // A backup keeps microseconds (ISO8601.formatMicroseconds): a stored time it was written
      // from is that time, not a change, so restoring onto the source store writes nothing.
      if let stored, ISO8601.formatMicroseconds(stored) == text { return stored }
      return date
    }
    func check(_ issues: [ValidationIssue], _ what: String) throws {
      guard issues.isEmpty else { throw BackupError(source: source, detail: "\(what): " + issues.map(\.message).joined(separator: " ")) }
    }
    // An object deleted since the backup comes back under a new id, the same one every time.
    var reissued = 0
    func id<E: Entity>(_ type: E.Type, _ id: UUID) throws -> UUID {
      guard try context.object(E.self, id: id) == nil, context.isRetired(E.self, id: id) else { return id }
      reissued += 1
      return Self.reissuedID(of: E.self, id) { context.isRetired(E.self, id: $0) }
    }
    var babyIDs: [UUID: UUID] = [:]
    var babies: [BabyProfile] = []
    for var baby in backup.babyProfiles {
      let what = "baby \(baby.id.uuidString)"
      let restoredID = try id(BabyProfile.self, baby.id)
      babyIDs[baby.id] = restoredID
      baby.id = restoredID
      if baby.name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
        throw BackupError(source: source, detail: "\(what): \(ScreenModelError.emptyName)")
      }
      try check(TrackerRules.issues(forName: baby.name) + TrackerRules.issues(forFeedTerm: baby.feedTerm), what)
      let stored = try context.object(BabyProfile.self, id: baby.id)
      babies.append(
        BabyProfile(id: baby.id, name: baby.name, feedTerm: baby.feedTerm, createdAt: try date(baby.createdAt, what, stored: stored?.createdAt)))
    }
    let sharedNames = try sharedNames(writing: babies, allowingSameName: allowingSameName)
    let known = Set(babies.map(\.id)).union(try context.babies().map(\.id))
    /// The restored id of the baby a backup's object refers to.
    func reference(_ id: UUID?, _ what: String) throws -> UUID? {
      guard let id else { return nil }
      let restored = babyIDs[id] ?? id
      if !known.contains(restored) {
        throw BackupError(source: source, detail: "\(what) refers to baby \(id.uuidString), which is neither in the backup nor in the store")
      }
      return restored
    }
    var feeds: [FeedSession] = []
    for feed in backup.feedSessions {
      let what = "feed \(feed.uuid.uuidString)"
      let profileID = try reference(feed.profileID, what)
      let uuid = try id(FeedSession.self, feed.uuid)
      let stored = try context.object(FeedSession.self, id: uuid)
      let restored = FeedSession(
        uuid: uuid, profileID: profileID, startTime: try date(feed.startTime, what, stored: stored?.startTime),
        endTime: try feed.endTime.map { try date($0, what, stored: stored?.endTime) }, amountValue: feed.amountValue,
        amountUnitSymbol: feed.amountUnitSymbol, memoText: feed.memoText)
      try check(TrackerRules.issues(forStart: restored.startTime, end: restored.endTime), what)
      if let amount = LastFeedAmount(feed: restored) { try check(TrackerRules.issues(forAmount: amount), what) }
      feeds.append(restored)
    }
    var diapers: [DiaperChange] = []
    for diaper in backup.diaperChanges {
      let what = "diaper change \(diaper.uuid.uuidString)"
      let profileID = try reference(diaper.profileID, what)
      guard let type = DiaperType(rawValue: diaper.type) else {
        throw BackupError(source: source, detail: "\(what): type '\(diaper.type)' is neither pee nor poo")
      }
      let uuid = try id(DiaperChange.self, diaper.uuid)
      let stored = try context.object(DiaperChange.self, id: uuid)
      diapers.append(
        DiaperChange(
          uuid: uuid, profileID: profileID, timestamp: try date(diaper.timestamp, what, stored: stored?.timestamp), type: type))
    }
    if !allowingFuture, let ahead = Self.aheadOfNow(Self.times(of: babies, feeds, diapers), now: now()) {
      throw BackupError(source: source, detail: ahead)
    }
    for amount in backup.lastFeedAmounts {
      try check(TrackerRules.issues(forAmount: LastFeedAmount(amountValue: amount.amountValue, amountUnitSymbol: amount.amountUnitSymbol)), "the cached amount of baby \(amount.babyID.uuidString)")
    }

    var written = StoreContentCounts(babies: 0, feeds: 0, diapers: 0)
    var unchanged = 0
    if dryRun {
      // The same checks as the restore, ending before the first write: a dry run refuses what the
      // restore would (a name in use, times ahead of the clock, bad data).
      func differs<E: Entity & Equatable>(_ value: E) throws -> Bool { try context.object(E.self, id: value.id) != value }
      for baby in babies { if try differs(baby) { written.babies += 1 } else { unchanged += 1 } }
      for feed in feeds { if try differs(feed) { written.feeds += 1 } else { unchanged += 1 } }
      for diaper in diapers { if try differs(diaper) { written.diapers += 1 } else { unchanged += 1 } }
      return Restoration(written: written, unchanged: unchanged, sharedNames: sharedNames, reissued: reissued)
    }
    // Only what differs is written: restoring twice writes nothing the second time.
    for baby in babies {
      if try restore(baby) { written.babies += 1 } else { unchanged += 1 }
    }
    for feed in feeds {
      if try restore(feed) { written.feeds += 1 } else { unchanged += 1 }
    }
    for diaper in diapers {
      if try restore(diaper) { written.diapers += 1 } else { unchanged += 1 }
    }
    try save()
    updateCache { cache in
      for amount in backup.lastFeedAmounts {
        let babyID = babyIDs[amount.babyID] ?? amount.babyID
        let value = LastFeedAmount(amountValue: amount.amountValue, amountUnitSymbol: amount.amountUnitSymbol)
        guard known.contains(babyID), TrackerRules.prefills(value) else { continue }
        if try cache.amountsByBabyID()[babyID] != value { try cache.set(value, forBabyID: babyID) }
      }
    }
    return Restoration(written: written, unchanged: unchanged, sharedNames: sharedNames, reissued: reissued)
  }

  /// Every time of these objects, with what it belongs to (``aheadOfNow(_:now:)`` names them).
  public static func times(of babies: [BabyProfile], _ feeds: [FeedSession], _ diapers: [DiaperChange]) -> [(what: String, time: Date)] {
    babies.map { ("baby \($0.id.uuidString) (\($0.name)) added", $0.createdAt) }
      + feeds.flatMap { feed in
        [("feed \(feed.uuid.uuidString) starts", feed.startTime)] + (feed.endTime.map { [("feed \(feed.uuid.uuidString) ends", $0)] } ?? [])
      }
      + diapers.map { ("diaper change \($0.uuid.uuidString) at", $0.timestamp) }
  }

  /// What is dated ahead of now (``TrackerRules/isAhead(_:of:)``), every one named with the way
  /// to write them anyway; nil when nothing is. The rule for every bulk door (a restore, an
  /// import): refused unless the person confirms.
  ///
  /// - Parameter dated: what each time belongs to ("feed … starts"), and the time.
  public static func aheadOfNow(_ dated: [(what: String, time: Date)], now moment: Date) -> String? {
    let ahead = dated.filter { TrackerRules.isAhead($0.time, of: moment) }
    guard !ahead.isEmpty else { return nil }
    let them = ahead.count == 1 ? "it" : "them"
    return "\(ahead.count == 1 ? "1 time is" : "\(ahead.count) times are") ahead of this device's clock (\(ISO8601.format(moment))): "
      + ahead.map { "\($0.what) \(ISO8601.format($0.time))" }.joined(separator: "; ")
      + " — the clock of the device that logged \(them) may have been wrong; check this device's date, "
      + "or run again with --yes to write \(them) as \(ahead.count == 1 ? "it is" : "they are")"
  }

  /// The id an object the store let go of comes back under: derived from its old id alone (the
  /// first of a sequence the store has not let go too), so that restoring again finds it.
  static func reissuedID<E: Entity>(of type: E.Type, _ id: UUID, isRetired: (UUID) -> Bool) -> UUID {
    var generation = 1
    while true {
      let candidate = IDSequence.derived(from: ["restored", E.entityName, id.uuidString, String(generation)])
      if !isRetired(candidate) { return candidate }
      generation += 1
    }
  }

  /// Records `value` exactly as the backup has it, nil properties included (an insert would
  /// keep the stored values its nils leave alone). Returns false when it is stored as it is.
  private func restore<E: Entity>(_ value: E) throws -> Bool {
    guard let stored = try context.object(E.self, id: value.id) else {
      context.insert(value)
      return true
    }
    guard stored != value else { return false }
    context.update(value, from: stored)
    return true
  }
}
