import Foundation

/// The last feed amount per baby name, outside the store (SEED-SPEC.md, Phase A).
///
/// Read to prefill the amount when a feed is finished; written whenever a feed with an amount is
/// saved. Keys are `lastFeedAmount.<babyName>`, values ``LastFeedAmount`` as JSON. It is keyed by
/// name, as the spec asks, with the consequences the spec accepts: two babies of one name share
/// a value (the last write wins), and a rename must ``move(fromBabyName:toBabyName:)`` it.
///
/// ```swift
/// let cache = LastFeedAmountCache(store: keyValueStore)
/// try cache.set(value: 120, unitSymbol: "ml", forBabyName: "Mia")
/// try cache.get(forBabyName: "Mia")   // LastFeedAmount(amountValue: 120, amountUnitSymbol: "mL")
/// ```
public struct LastFeedAmountCache: Sendable {
  /// The prefix of every key.
  public static let keyPrefix = "lastFeedAmount."

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

  /// The cached amount for `name`, or `nil` if there is none.
  ///
  /// - Throws: ``KeyValueStoreError`` if the store cannot be read or the value is not a
  ///   last-feed amount.
  public func get(forBabyName name: String) throws -> LastFeedAmount? {
    let key = Self.key(forBabyName: name)
    guard let data = try store.data(forKey: key) else { return nil }
    do {
      return try JSONDecoder().decode(LastFeedAmount.self, from: data)
    } catch {
      throw KeyValueStoreError(
        code: .damaged, path: key,
        detail: "not a last-feed amount (\(FileKeyValueStore.reason(error))); remove(forBabyName:) "
          + "clears it, and the next saved feed or a backfill writes it again")
    }
  }

  /// Caches `value` in `unitSymbol` as the last amount for `name`; a known unit spelling is
  /// stored as its canonical symbol.
  public func set(value: Double, unitSymbol: String, forBabyName name: String) throws {
    try set(LastFeedAmount(amountValue: value, amountUnitSymbol: unitSymbol), forBabyName: name)
  }

  /// Caches `amount` as the last amount for `name`.
  public func set(_ amount: LastFeedAmount, forBabyName name: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    try store.set(try encoder.encode(amount), forKey: Self.key(forBabyName: name))
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

  /// Every cached amount, by baby name.
  public func allAmounts() throws -> [String: LastFeedAmount] {
    var result: [String: LastFeedAmount] = [:]
    for key in try store.keys(withPrefix: Self.keyPrefix) {
      let name = String(key.dropFirst(Self.keyPrefix.count))
      result[name] = try get(forBabyName: name)
    }
    return result
  }
}
