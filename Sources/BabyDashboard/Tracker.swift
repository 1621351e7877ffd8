import Foundation
import PlainStore

/// The one door every write about babies, feeds and diaper changes goes through.
///
/// The app's screens (``DashboardModel``, ``HistoryModel``, ``HistoryEditModel``) and every
/// `babydash` command add, edit, rename, remove, start, finish, log, edit and delete through it, so
/// they share:
/// - one validation of ranges (``TrackerRules``: names, terms, amounts, times not in the future),
///   and of what is possible but doubtful and saved only when confirmed (a feed longer than four
///   hours, a start more than a day ago, overlapping feeds, a zero amount);
/// - one clash rule, read from the schema's unique keys
///   (``StoreContext/clashingObject(with:schema:)``), so a write never silently merges into
///   another row;
/// - one cache policy (``rememberAmount(of:)``): a saved feed with an amount becomes its baby's
///   cached last amount when it is the baby's latest feed with one;
/// - save or rollback: a refused or failed save leaves the context as it was.
///
/// A cache failure after a successful save does not undo the save (the store is the record, the
/// cache a convenience): it is kept in ``cacheWarning`` for the caller to mention.
///
/// ```swift
/// let tracker = Tracker(context: container.viewContext, schema: container.schema, cache: cache, now: { Date() })
/// let mia = try tracker.addBaby(name: "Mia")
/// try tracker.startFeed(for: mia.id, at: Date())
/// try tracker.finishFeed(for: mia.id, at: Date(), amount: LastFeedAmount(amountValue: 120, amountUnitSymbol: "mL"))
/// ```
public final class Tracker {
  /// The context written through.
  public let context: StoreContext
  /// The schema whose unique keys decide clashes.
  public let schema: Schema
  /// The last-feed-amount cache, or nil for a writer that never touches it.
  public let cache: LastFeedAmountCache?
  /// The rollout switches (the cache is used only when ``FeatureFlags/lastFeedAmountCache``).
  public var flags: FeatureFlags
  /// The last failure to read or update the cache; the write itself stood.
  public private(set) var cacheWarning: String?

  let now: () -> Date
  let newID: () -> UUID

  /// - Parameters:
  ///   - context: where objects are read and saved.
  ///   - schema: the store's schema (its unique keys are the clash rule).
  ///   - cache: the last-feed-amount cache, nil when this writer never changes amounts.
  ///   - flags: the rollout switches.
  ///   - now: the clock that decides what "the future" is (tests pass a fixed one).
  ///   - newID: the identities of new objects (tests pass fixed ones).
  public init(
    context: StoreContext, schema: Schema = BabyDashboardSchema.current, cache: LastFeedAmountCache?,
    flags: FeatureFlags = .defaults, now: @escaping () -> Date, newID: @escaping () -> UUID = { UUID() }
  ) {
    self.context = context
    self.schema = schema
    self.cache = cache
    self.flags = flags
    self.now = now
    self.newID = newID
  }

  // MARK: - Babies

  /// Adds a baby; it goes last on the dashboard.
  ///
  /// - Parameters:
  ///   - createdAt: when it was added (default: now); not in the future.
  ///   - allowingSameName: whether another baby may already have the name.
  /// - Throws: ``ScreenModelError/emptyName``, ``ScreenModelError/invalid(_:)``,
  ///   ``ScreenModelError/nameInUse(name:babyIDs:)``, or a `StoreError` from the save.
  @discardableResult
  public func addBaby(
    name: String, feedTerm: TimeInterval = BabyProfile.defaultFeedTerm, createdAt: Date? = nil,
    allowingSameName: Bool = false
  ) throws -> BabyProfile {
    let name = try TrackerRules.babyName(name)
    let createdAt = createdAt ?? now()
    try refuse(TrackerRules.issues(forFeedTerm: feedTerm) + TrackerRules.issues(forTime: createdAt, now: now()))
    if !allowingSameName { try refuseSameName(name, except: nil) }
    let baby = BabyProfile(id: newID(), name: name, feedTerm: feedTerm, createdAt: createdAt)
    context.insert(baby)
    try save()
    return baby
  }

  /// Renames a baby. Its cached amount is keyed by id and stays with it.
  ///
  /// - Throws: as ``addBaby(name:feedTerm:createdAt:allowingSameName:)``, and
  ///   ``ScreenModelError/unknownBaby(_:)``.
  @discardableResult
  public func renameBaby(_ babyID: UUID, to newName: String, allowingSameName: Bool = false) throws -> BabyProfile {
    try editBaby(babyID, name: newName, allowingSameName: allowingSameName)
  }

  /// Changes a baby's name, its feed term, or both; nil leaves a value as stored. Its cached
  /// amount is keyed by id and stays with it.
  ///
  /// - Throws: as ``addBaby(name:feedTerm:createdAt:allowingSameName:)`` (a name checked only
  ///   when it changes), and ``ScreenModelError/unknownBaby(_:)``.
  @discardableResult
  public func editBaby(_ babyID: UUID, name newName: String? = nil, feedTerm: TimeInterval? = nil, allowingSameName: Bool = false) throws
    -> BabyProfile
  {
    let name = try newName.map { try TrackerRules.babyName($0) }
    if let feedTerm { try refuse(TrackerRules.issues(forFeedTerm: feedTerm)) }
    var baby = try baby(babyID)
    let stored = baby
    if let name, name != baby.name {
      if !allowingSameName { try refuseSameName(name, except: babyID) }
      // An entry still under the old name belongs to this baby from now on, not to the next
      // baby who takes the name.
      let babies = try context.babies()
      readCache { _ = try $0.amount(for: baby, among: babies) }
      baby.name = name
    }
    if let feedTerm { baby.feedTerm = feedTerm }
    guard baby != stored else { return baby }
    context.update(baby, from: stored)  // only what changed: another process may have changed the rest meanwhile
    try save()
    return baby
  }

  /// What removing a baby did.
  public struct Removal: Sendable, Hashable {
    public var baby: BabyProfile
    /// Its feeds and diaper changes, which stay in the history with no baby.
    public var orphanedFeeds: Int
    public var orphanedDiapers: Int
  }

  /// How many feeds and diaper changes a baby has: what removing it would orphan.
  public func eventCounts(of babyID: UUID) throws -> (feeds: Int, diapers: Int) {
    let id: UUID? = babyID
    let feeds = try context.fetchCount(FetchDescriptor<FeedSession>(predicate: #Predicate { $0.profileID == id }))
    let diapers = try context.fetchCount(FetchDescriptor<DiaperChange>(predicate: #Predicate { $0.profileID == id }))
    return (feeds, diapers)
  }

  /// Removes a baby. Its feeds and diaper changes stay with no baby (the store's nullify rule)
  /// and can be given to another baby with ``editFeed(_:_:)``; its cached amount is forgotten.
  ///
  /// - Throws: ``ScreenModelError/unknownBaby(_:)`` if it is already gone.
  @discardableResult
  public func removeBaby(_ babyID: UUID) throws -> Removal {
    let baby = try baby(babyID)
    let counts = try eventCounts(of: babyID)
    let babies = try context.babies()
    readCache { _ = try $0.amount(for: baby, among: babies) }
    context.delete(baby)
    try save()
    updateCache { try $0.remove(forBabyID: babyID) }
    return Removal(baby: baby, orphanedFeeds: counts.feeds, orphanedDiapers: counts.diapers)
  }

  // MARK: - Internals shared by the extensions

  /// The baby with this id.
  public func baby(_ id: UUID) throws -> BabyProfile {
    guard let baby = try context.object(BabyProfile.self, id: id) else { throw ScreenModelError.unknownBaby(id) }
    return baby
  }

  func refuse(_ issues: [ValidationIssue]) throws {
    guard issues.isEmpty else { throw ScreenModelError.invalid(issues) }
  }

  private func refuseSameName(_ name: String, except babyID: UUID?) throws {
    let others = try context.babies().filter { TrackerRules.isSameName($0.name, name) && $0.id != babyID }
    guard others.isEmpty else { throw ScreenModelError.nameInUse(name: name, babyIDs: others.map(\.id)) }
  }

  /// The same-name rule for babies written in bulk (a restore, an import): a baby of `incoming`
  /// may not take a name a stored baby outside `incoming` has, unless `allowingSameName`. Babies
  /// of one name within `incoming` were allowed where they were made: they are returned, to be
  /// told to the person, with every baby's id that shares each name after the write.
  ///
  /// - Throws: ``ScreenModelError/nameInUse(name:babyIDs:)`` for the first name taken.
  public func sharedNames(writing incoming: [BabyProfile], allowingSameName: Bool) throws -> [String: [UUID]] {
    let incomingIDs = Set(incoming.map(\.id))
    let others = try context.babies().filter { !incomingIDs.contains($0.id) }
    var shared: [String: [UUID]] = [:]
    for baby in incoming {
      let taken = others.filter { TrackerRules.isSameName($0.name, baby.name) }
      if !taken.isEmpty, !allowingSameName { throw ScreenModelError.nameInUse(name: baby.name, babyIDs: taken.map(\.id)) }
      let twins = incoming.filter { TrackerRules.isSameName($0.name, baby.name) } + taken
      if twins.count > 1, !shared.keys.contains(where: { TrackerRules.isSameName($0, baby.name) }) {
        shared[baby.name] = twins.map(\.id)
      }
    }
    return shared
  }

  /// Saves, or forgets the unsaved changes and rethrows: a refused save leaves nothing behind.
  func save() throws {
    do {
      try context.save()
    } catch {
      context.rollback()
      throw error
    }
  }

  /// Runs `body` on the cache when it is in use, keeping a failure as ``cacheWarning``.
  func updateCache(_ body: (LastFeedAmountCache) throws -> Void) {
    guard flags.lastFeedAmountCache, let cache else { return }
    do {
      try body(cache)
      cacheWarning = nil
    } catch {
      cacheWarning = "\(error)"
    }
  }

  /// Like ``updateCache(_:)``, for reads: a damaged entry must not stop the write or the screen.
  func readCache(_ body: (LastFeedAmountCache) throws -> Void) {
    guard flags.lastFeedAmountCache, let cache else { return }
    do {
      try body(cache)
    } catch {
      cacheWarning = "\(error)"
    }
  }
}
