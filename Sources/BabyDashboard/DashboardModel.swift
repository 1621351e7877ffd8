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
/// try model.reload()                                 // reads the tiles, then follows the store
/// let feed = try model.startFeed(for: mia.id)
/// var form = try model.finishFeedForm(for: mia.id)   // prefilled: "120" "mL"
/// form.amountText = "130"
/// try model.finishFeed(for: mia.id, amount: form)    // saved; the cache now says 130 mL
/// ```
@MainActor @Observable
public final class DashboardModel {
  /// One tile per baby, createdAt ascending; empty until the first ``reload()``, then kept up
  /// to date by a live query.
  public var tiles: [DashboardTile] { liveTiles?.results.tiles ?? [] }
  /// Why the tiles could not be read again after a change in the store; nil once they are.
  public var loadError: (any Error)? { liveTiles?.error }
  /// The last failure to update the cache after a successful save, for the UI to mention; the
  /// save itself stood (the cache is a convenience, the store is the record).
  public private(set) var cacheWarning: String?
  /// The rollout switches; change them, then ``reload()``.
  public var flags: FeatureFlags

  @ObservationIgnored public let container: StoreContainer
  @ObservationIgnored public let cache: LastFeedAmountCache
  @ObservationIgnored private let now: () -> Date
  @ObservationIgnored private let newID: () -> UUID
  /// The tiles, recomputed off the main actor after every commit (any context, any process)
  /// that touches babies, feeds or diaper changes; made by the first ``reload()``.
  private var liveTiles: LiveQuery<TilesReading>?

  /// What the tiles are read with besides the store, taken on the main actor when a change comes.
  private struct TilesInputs: Sendable {
    var now: Date
    var schema: Schema
    var cache: LastFeedAmountCache
    var flags: FeatureFlags
  }

  /// The tiles as read, and the cache's warning if reading it failed.
  private struct TilesReading: Sendable {
    var tiles: [DashboardTile] = []
    var cacheWarning: String?
  }

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

  /// The door every write goes through, with this model's clock, ids and flags; its cache
  /// warning becomes the model's.
  private func write<T>(_ body: (Tracker) throws -> T) throws -> T {
    let tracker = Tracker(
      context: context, schema: container.schema, cache: cache, flags: flags, now: now, newID: newID)
    let result = try body(tracker)
    cacheWarning = tracker.cacheWarning
    try reload()
    return result
  }

  /// Reads the tiles from the store now. The first call also starts following the store: from
  /// then on, saves in any context and other processes' commits update ``tiles`` by themselves.
  /// Call it again when something outside the store changed (the clock, the cache, ``flags``).
  public func reload() throws {
    if let liveTiles {
      try liveTiles.refetch()
    } else {
      let query = try container.liveQuery(tracking: [BabyProfile.self, FeedSession.self, DiaperChange.self], state: { [weak self] in self?.tilesInputs }) {
        context, inputs in try inputs.map { try Self.readTiles(context, $0) } ?? TilesReading()
      }
      query.onChange = { [weak self] reading in self?.noteCacheWarning(reading) }
      noteCacheWarning(query.results)
      liveTiles = query
    }
  }

  private var tilesInputs: TilesInputs { TilesInputs(now: now(), schema: container.schema, cache: cache, flags: flags) }

  private func noteCacheWarning(_ reading: TilesReading) {
    if let warning = reading.cacheWarning { cacheWarning = warning }
  }

  private nonisolated static func readTiles(_ context: StoreContext, _ inputs: TilesInputs) throws -> TilesReading {
    let tracker = Tracker(context: context, schema: inputs.schema, cache: inputs.cache, flags: inputs.flags, now: { inputs.now })
    let tiles = try context.babies().map { try tile(for: $0, now: inputs.now, tracker: tracker, in: context) }
    return TilesReading(tiles: tiles, cacheWarning: tracker.cacheWarning)
  }

  /// The tile of one baby, if it is shown.
  public func tile(for babyID: UUID) -> DashboardTile? {
    tiles.first { $0.baby.id == babyID }
  }

  // MARK: - Babies

  /// Adds a baby created now; it goes last on the dashboard (see ``Tracker/addBaby(name:feedTerm:createdAt:allowingSameName:)``).
  @discardableResult
  public func addBaby(name: String, feedTerm: TimeInterval = BabyProfile.defaultFeedTerm, allowingSameName: Bool = false) throws -> BabyProfile {
    try write { try $0.addBaby(name: name, feedTerm: feedTerm, allowingSameName: allowingSameName) }
  }

  /// Renames a baby; its cached last amount is keyed by id and stays with it.
  public func renameBaby(_ babyID: UUID, to newName: String, allowingSameName: Bool = false) throws {
    _ = try write { try $0.renameBaby(babyID, to: newName, allowingSameName: allowingSameName) }
  }

  /// Changes a baby's name, its feed term, or both (the baby's settings sheet); nil leaves a
  /// value as stored (see ``Tracker/editBaby(_:name:feedTerm:allowingSameName:)``).
  public func editBaby(_ babyID: UUID, name: String? = nil, feedTerm: TimeInterval? = nil, allowingSameName: Bool = false) throws {
    _ = try write { try $0.editBaby(babyID, name: name, feedTerm: feedTerm, allowingSameName: allowingSameName) }
  }

  /// Deletes a baby. Its feeds and diaper changes stay in the history with no baby (the
  /// store's nullify rule), and its cached last amount is forgotten.
  ///
  /// - Throws: ``ScreenModelError/unknownBaby(_:)`` if it is already gone.
  public func deleteBaby(_ babyID: UUID) throws {
    _ = try write { try $0.removeBaby(babyID) }
  }

  // MARK: - Feeds and diapers

  /// Starts a feed now.
  ///
  /// - Throws: ``ScreenModelError/alreadyFeeding(babyName:)`` if one is in progress;
  ///   ``ScreenModelError/invalid(_:)`` with ``ValidationIssue/anotherFeedStartsThen`` if a
  ///   finished feed of the baby started at this very moment.
  @discardableResult
  public func startFeed(for babyID: UUID) throws -> FeedSession {
    try write { try $0.startFeed(for: babyID) }
  }

  /// The finish-feed form, prefilled with the baby's last amount (ContentView's
  /// `finishFeedSheet.onAppear`): from the cache when it is on and holds one, else from the most
  /// recent feed with an amount, else empty in mL. Counted as a cache hit or miss.
  public func finishFeedForm(for babyID: UUID) throws -> FeedAmountInput {
    FeedAmountInput(try write { try $0.prefill(for: babyID) })
  }

  /// Finishes the baby's feed in progress now, with the amount in `amount` (empty for none); the
  /// amount becomes the baby's cached last amount (ContentView's `finishFeeding`). A `memo`
  /// replaces the feed's memo; nil keeps it.
  ///
  /// - Throws: ``ScreenModelError/invalid(_:)`` for a bad amount or unit,
  ///   ``ScreenModelError/noFeedInProgress(babyName:)`` if there is nothing to finish,
  ///   ``ScreenModelError/unconfirmed(_:)`` for a feed longer than four hours or a zero amount
  ///   (ask the person, then call again with `confirmed: true`).
  @discardableResult
  public func finishFeed(for babyID: UUID, amount: FeedAmountInput, memo: String? = nil, confirmed: Bool = false) throws -> FeedSession {
    let parsed = try amount.amount()
    return try write { try $0.finishFeed(for: babyID, amount: parsed, memo: memo, confirmed: confirmed) }
  }

  /// Logs a diaper change now.
  ///
  /// - Throws: ``ScreenModelError/invalid(_:)`` with ``ValidationIssue/sameDiaperChangeExists``
  ///   if one of this type is already logged at this very moment (the store would merge the two).
  @discardableResult
  public func logDiaper(_ type: DiaperType, for babyID: UUID) throws -> DiaperChange {
    try write { try $0.logDiaper(type, for: babyID) }
  }

  // MARK: - Internals

  private nonisolated static func tile(for baby: BabyProfile, now: Date, tracker: Tracker, in context: StoreContext) throws -> DashboardTile {
    let inProgress = try context.inProgressFeed(of: baby.id, asOf: now)
    let lastFinished = try context.lastFinishedFeed(of: baby.id, asOf: now)
    let latestStart = [inProgress?.startTime, lastFinished?.startTime].compactMap { $0 }.max()
    let nextFeedDue = latestStart.flatMap { baby.nextFeedDue(afterFeedStartingAt: $0) }
    let (amount, source) = try tracker.lastAmount(of: baby)
    return DashboardTile(
      baby: baby,
      inProgressFeed: inProgress,
      lastFinishedFeed: lastFinished,
      lastAmount: amount,
      lastAmountSource: source,
      nextFeedDue: nextFeedDue,
      isOverdue: inProgress == nil && nextFeedDue.map { now >= $0 } == true,
      lastDiaper: try context.lastDiaper(of: baby.id, asOf: now))
  }
}
