import Foundation
import Observation
import PlainStore

/// The logic of the dashboard (ContentView), without any UI framework.
///
/// Shows one ``DashboardTile`` per baby, oldest baby first (createdAt ascending, not by name);
/// starts a feed, finishes it with the amount prefilled from ``LastFeedAmountCache`` (and writes
/// the cache on save), logs a pee or a poo, adds and renames babies.
///
/// With the cache flag off (Phase A's backout) the model neither reads nor writes the cache: the
/// last amount and the prefill come from the most recent feed with an amount in the store.
///
/// ```swift
/// let model = DashboardModel(container: container, cache: cache, now: { Date() })
/// try model.reload()
/// let feed = try model.startFeed(for: mia.id)
/// var form = try model.finishFeedForm(for: mia.id)   // prefilled: "120" "mL"
/// form.amountText = "130"
/// try model.finishFeed(for: mia.id, amount: form)    // saved; the cache now says 130 mL
/// ```
@MainActor @Observable
public final class DashboardModel {
  /// One tile per baby, createdAt ascending.
  public private(set) var tiles: [DashboardTile] = []
  /// The last failure to update the cache after a successful save, for the UI to mention; the
  /// save itself stood (the cache is a convenience, the store is the record).
  public private(set) var cacheWarning: String?
  /// The rollout switches; change them, then ``reload()``.
  public var flags: FeatureFlags

  @ObservationIgnored public let container: StoreContainer
  @ObservationIgnored public let cache: LastFeedAmountCache
  @ObservationIgnored private let now: () -> Date
  @ObservationIgnored private let newID: () -> UUID

  /// - Parameters:
  ///   - container: the store; the model works on its `viewContext`.
  ///   - cache: the last-feed-amount cache.
  ///   - flags: the rollout switches.
  ///   - now: the clock (tests and previews pass a fixed one).
  ///   - newID: the identities of new babies, feeds and diaper changes (tests pass fixed ones).
  public init(
    container: StoreContainer, cache: LastFeedAmountCache, flags: FeatureFlags = .defaults,
    now: @escaping () -> Date, newID: @escaping () -> UUID = { UUID() }
  ) {
    self.container = container
    self.cache = cache
    self.flags = flags
    self.now = now
    self.newID = newID
  }

  private var context: StoreContext { container.viewContext }

  /// Reads the tiles again from the store (call it after a remote change, too).
  public func reload() throws {
    let moment = now()
    tiles = try context.babies().map { try tile(for: $0, now: moment) }
  }

  /// The tile of one baby, if it is shown.
  public func tile(for babyID: UUID) -> DashboardTile? {
    tiles.first { $0.baby.id == babyID }
  }

  // MARK: - Babies

  /// Adds a baby created now; it goes last on the dashboard.
  @discardableResult
  public func addBaby(name: String, feedTerm: TimeInterval = BabyProfile.defaultFeedTerm) throws -> BabyProfile {
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { throw ScreenModelError.emptyName }
    let baby = BabyProfile(id: newID(), name: trimmed, feedTerm: feedTerm, createdAt: now())
    context.insert(baby)
    try saveOrRollback()
    try reload()
    return baby
  }

  /// Renames a baby and moves its cached last amount to the new name.
  public func renameBaby(_ babyID: UUID, to newName: String) throws {
    let trimmed = newName.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { throw ScreenModelError.emptyName }
    var baby = try baby(babyID)
    let oldName = baby.name
    guard oldName != trimmed else { return }
    baby.name = trimmed
    context.update(baby)
    try saveOrRollback()
    if flags.lastFeedAmountCache {
      updateCache { try cache.move(fromBabyName: oldName, toBabyName: trimmed) }
    }
    try reload()
  }

  /// Deletes a baby. Its feeds and diaper changes stay in the history with no baby (the
  /// store's nullify rule), and its cached last amount is forgotten unless another baby still
  /// has the same name (the name-keyed cache holds one value for both).
  ///
  /// - Throws: ``ScreenModelError/unknownBaby(_:)`` if it is already gone.
  public func deleteBaby(_ babyID: UUID) throws {
    let baby = try baby(babyID)
    context.delete(baby)
    try saveOrRollback()
    if flags.lastFeedAmountCache, try !context.babies().contains(where: { $0.name == baby.name }) {
      updateCache { try cache.remove(forBabyName: baby.name) }
    }
    try reload()
  }

  // MARK: - Feeds and diapers

  /// Starts a feed now.
  ///
  /// - Throws: ``ScreenModelError/alreadyFeeding(babyName:)`` if one is in progress;
  ///   ``ScreenModelError/invalid(_:)`` with ``ValidationIssue/anotherFeedStartsThen`` if a
  ///   finished feed of the baby started at this very moment (the store's uniqueness constraint
  ///   would otherwise merge the new feed into it and erase its end and amount).
  @discardableResult
  public func startFeed(for babyID: UUID) throws -> FeedSession {
    let baby = try baby(babyID)
    guard try context.inProgressFeed(of: babyID) == nil else {
      throw ScreenModelError.alreadyFeeding(babyName: baby.name)
    }
    let start = now()
    let profile: UUID? = babyID
    let sameStart = FetchDescriptor<FeedSession>(predicate: #Predicate { $0.profileID == profile && $0.startTime == start })
    if try context.fetchCount(sameStart) > 0 {
      throw ScreenModelError.invalid([.anotherFeedStartsThen])
    }
    let feed = FeedSession(uuid: newID(), profileID: babyID, startTime: start)
    context.insert(feed)
    try saveOrRollback()
    try reload()
    return feed
  }

  /// The finish-feed form, prefilled with the baby's last amount (ContentView's
  /// `finishFeedSheet.onAppear`): from the cache when it is on and holds one, else from the most
  /// recent feed with an amount, else empty in mL.
  public func finishFeedForm(for babyID: UUID) throws -> FeedAmountInput {
    let baby = try baby(babyID)
    return FeedAmountInput(try lastAmount(of: baby).amount)
  }

  /// Finishes the baby's feed in progress now, with the amount in `amount` (empty for none), and
  /// caches the amount under the baby's name (ContentView's `finishFeeding`). A `memo` replaces
  /// the feed's memo; nil keeps it.
  ///
  /// - Throws: ``ScreenModelError/invalid(_:)`` for a bad amount or unit,
  ///   ``ScreenModelError/noFeedInProgress(babyName:)`` if there is nothing to finish.
  @discardableResult
  public func finishFeed(for babyID: UUID, amount: FeedAmountInput, memo: String? = nil) throws -> FeedSession {
    let baby = try baby(babyID)
    let parsed = try amount.amount()
    guard var feed = try context.inProgressFeed(of: babyID) else {
      throw ScreenModelError.noFeedInProgress(babyName: baby.name)
    }
    feed.endTime = max(now(), feed.startTime)
    feed.amountValue = parsed?.amountValue
    feed.amountUnitSymbol = parsed?.amountUnitSymbol
    if let memo { feed.memoText = memo }
    context.update(feed)
    try saveOrRollback()
    if flags.lastFeedAmountCache, let parsed {
      updateCache { try cache.set(parsed, forBabyName: baby.name) }
    }
    try reload()
    return feed
  }

  /// Logs a diaper change now.
  ///
  /// - Throws: ``ScreenModelError/invalid(_:)`` with ``ValidationIssue/sameDiaperChangeExists``
  ///   if one of this type is already logged at this very moment (the store would merge the two).
  @discardableResult
  public func logDiaper(_ type: DiaperType, for babyID: UUID) throws -> DiaperChange {
    _ = try baby(babyID)
    let moment = now()
    let profile: UUID? = babyID
    let sameMoment = FetchDescriptor<DiaperChange>(predicate: #Predicate { $0.profileID == profile && $0.timestamp == moment })
    // The type is compared here: enum comparisons inside #Predicate are not portable.
    if try context.fetch(sameMoment).contains(where: { $0.type == type }) {
      throw ScreenModelError.invalid([.sameDiaperChangeExists])
    }
    let diaper = DiaperChange(uuid: newID(), profileID: babyID, timestamp: moment, type: type)
    context.insert(diaper)
    try saveOrRollback()
    try reload()
    return diaper
  }

  // MARK: - Internals

  private func baby(_ id: UUID) throws -> BabyProfile {
    guard let baby = try context.object(BabyProfile.self, id: id) else { throw ScreenModelError.unknownBaby(id) }
    return baby
  }

  private func tile(for baby: BabyProfile, now: Date) throws -> DashboardTile {
    let inProgress = try context.inProgressFeed(of: baby.id)
    let lastFinished = try context.lastFinishedFeed(of: baby.id)
    let latestStart = [inProgress?.startTime, lastFinished?.startTime].compactMap { $0 }.max()
    let nextFeedDue = latestStart.flatMap { baby.nextFeedDue(afterFeedStartingAt: $0) }
    let (amount, source) = try lastAmount(of: baby)
    return DashboardTile(
      baby: baby,
      inProgressFeed: inProgress,
      lastFinishedFeed: lastFinished,
      lastAmount: amount,
      lastAmountSource: source,
      nextFeedDue: nextFeedDue,
      isOverdue: inProgress == nil && nextFeedDue.map { now >= $0 } == true,
      lastDiaper: try context.lastDiaper(of: baby.id))
  }

  private func lastAmount(of baby: BabyProfile) throws -> (amount: LastFeedAmount?, source: DashboardTile.AmountSource?) {
    if flags.lastFeedAmountCache {
      do {
        if let cached = try cache.get(forBabyName: baby.name) { return (cached, .cache) }
      } catch {
        // A damaged cache entry must not hide the dashboard: say so, and use the history.
        cacheWarning = "\(error)"
      }
    }
    if let feed = try context.lastFeedWithAmount(of: baby.id), let amount = LastFeedAmount(feed: feed) {
      return (amount, .history)
    }
    return (nil, nil)
  }

  private func updateCache(_ body: () throws -> Void) {
    do {
      try body()
      cacheWarning = nil
    } catch {
      cacheWarning = "\(error)"
    }
  }

  private func saveOrRollback() throws {
    do {
      try context.save()
    } catch {
      context.rollback()
      throw error
    }
  }
}
