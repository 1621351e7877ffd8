import Foundation

/// The last feed amount per baby, outside the store (Phase A, keyed by id: <doc:DataModel>).
///
/// Read to prefill the amount when a feed is finished; written whenever a feed with an amount is
/// saved (``Tracker`` decides when). The spec keys it by name and lists the risks that follow
/// (two babies named Mia share one value; a rename leaves a stale key); we ship its mitigation:
/// entries are keyed by the baby's id, `lastFeedAmountByID.<uuid>`. Entries written under a name
/// (`lastFeedAmount.<name>`: Phase A data, the legacy app) are read and moved to the id on first
/// use by ``amount(for:among:)``, so two babies who share a name never share a prefill.
///
/// ```swift
/// let cache = LastFeedAmountCache(store: keyValueStore)
/// try cache.set(LastFeedAmount(amountValue: 120, amountUnitSymbol: "ml"), forBabyID: mia.id)
/// try cache.amount(for: mia)   // LastFeedAmount(amountValue: 120, amountUnitSymbol: "mL")
/// ```
public struct LastFeedAmountCache: Sendable {
  /// The prefix of the name-keyed entries of Phase A, read and moved on first use.
  public static let keyPrefix = "lastFeedAmount."
  /// The prefix of the entries keyed by baby id.
  public static let idKeyPrefix = "lastFeedAmountByID."

  /// Where the values live.
  public let store: any KeyValueStore

  /// A cache on `store`.
  public init(store: any KeyValueStore) {
    self.store = store
  }

  /// The key for a baby's name: `lastFeedAmount.<babyName>`.
  public static func key(forBabyName name: String) -> String {
    keyPrefix + name
  }

  /// The key for a baby's id: `lastFeedAmountByID.<UUID>`.
  public static func key(forBabyID id: UUID) -> String {
    idKeyPrefix + id.uuidString
  }

  /// The cached amount of `baby`, or `nil` if there is none.
  ///
  /// An entry still under the baby's name (written before entries were keyed by id) is moved to
  /// its id here when `baby` owns it: the oldest of the babies that share the name (see
  /// ``ownsNameEntry(_:among:)``), so the others never borrow it.
  /// - Parameter babies: every baby in the store; omit it when names are known to be unique.
  /// - Throws: ``KeyValueStoreError`` if the store cannot be read or a value is damaged.
  public func amount(for baby: BabyProfile, among babies: [BabyProfile]? = nil) throws -> LastFeedAmount? {
    let idKey = Self.key(forBabyID: baby.id)
    if let data = try store.data(forKey: idKey) { return try decode(data, key: idKey) }
    guard Self.ownsNameEntry(baby, among: babies ?? [baby]) else { return nil }
    let nameKey = Self.key(forBabyName: baby.name)
    guard let data = try store.data(forKey: nameKey) else { return nil }
    let amount = try decode(data, key: nameKey)
    try store.moveValue(fromKey: nameKey, toKey: idKey)
    return amount
  }

  /// Whether `baby` is the one an entry under its name belongs to: the oldest baby of that name
  /// (by createdAt, then id), the order the dashboard shows them in.
  public static func ownsNameEntry(_ baby: BabyProfile, among babies: [BabyProfile]) -> Bool {
    let namesakes = babies.filter { $0.name == baby.name && $0.id != baby.id } + [baby]
    let oldest = namesakes.min { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
    return oldest?.id == baby.id
  }

  /// Caches `amount` as the last amount of the baby with `id`.
  public func set(_ amount: LastFeedAmount, forBabyID id: UUID) throws {
    try write(amount, key: Self.key(forBabyID: id))
  }

  /// Forgets the amount of the baby with `id`.
  public func remove(forBabyID id: UUID) throws {
    try store.remove(forKey: Self.key(forBabyID: id))
  }

  /// Every amount cached by id.
  public func amountsByBabyID() throws -> [UUID: LastFeedAmount] {
    var result: [UUID: LastFeedAmount] = [:]
    for key in try store.keys(withPrefix: Self.idKeyPrefix) {
      guard let id = UUID(uuidString: String(key.dropFirst(Self.idKeyPrefix.count))),
        let data = try store.data(forKey: key)
      else { continue }
      result[id] = try decode(data, key: key)
    }
    return result
  }

  /// An amount as its entry holds it: JSON with sorted keys, the same bytes every time.
  private func write(_ amount: LastFeedAmount, key: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    try store.set(try encoder.encode(amount), forKey: key)
  }

  private func decode(_ data: Data, key: String) throws -> LastFeedAmount {
    do {
      return try JSONDecoder().decode(LastFeedAmount.self, from: data)
    } catch {
      throw KeyValueStoreError(
        code: .damaged, path: key,
        detail: "not a last-feed amount (\(FileKeyValueStore.reason(error))); remove it, "
          + "and the next saved feed or a backfill writes it again")
    }
  }

  /// The cached amount under the name `name` (Phase A data), or `nil` if there is none.
  ///
  /// - Throws: ``KeyValueStoreError`` if the store cannot be read or the value is not a
  ///   last-feed amount.
  public func get(forBabyName name: String) throws -> LastFeedAmount? {
    let key = Self.key(forBabyName: name)
    guard let data = try store.data(forKey: key) else { return nil }
    return try decode(data, key: key)
  }

  /// Caches `value` in `unitSymbol` as the last amount for `name`; a known unit spelling is
  /// stored as its canonical symbol.
  public func set(value: Double, unitSymbol: String, forBabyName name: String) throws {
    try set(LastFeedAmount(amountValue: value, amountUnitSymbol: unitSymbol), forBabyName: name)
  }

  /// Caches `amount` as the last amount for `name`.
  public func set(_ amount: LastFeedAmount, forBabyName name: String) throws {
    try write(amount, key: Self.key(forBabyName: name))
  }

  /// Forgets the amount for `name`.
  public func remove(forBabyName name: String) throws {
    try store.remove(forKey: Self.key(forBabyName: name))
  }

  /// Moves the amount from `oldName` to `newName` when a baby is renamed.
  ///
  /// Does nothing if `oldName` has none (an amount already under `newName` stays). If `newName`
  /// already has one, the moved value replaces it.
  public func move(fromBabyName oldName: String, toBabyName newName: String) throws {
    try store.moveValue(fromKey: Self.key(forBabyName: oldName), toKey: Self.key(forBabyName: newName))
  }

  /// Every amount still cached by name (Phase A data not yet moved to an id).
  public func allAmounts() throws -> [String: LastFeedAmount] {
    var result: [String: LastFeedAmount] = [:]
    for key in try store.keys(withPrefix: Self.keyPrefix) {
      let name = String(key.dropFirst(Self.keyPrefix.count))
      result[name] = try get(forBabyName: name)
    }
    return result
  }
}
