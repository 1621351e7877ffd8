import Foundation

extension LastFeedAmountCache {
  /// How often a prefill found a cached amount: the spec's "cache hits" telemetry.
  public struct Lookups: Codable, Sendable, Hashable {
    public var hits: Int
    public var misses: Int

    public init(hits: Int = 0, misses: Int = 0) {
      self.hits = hits
      self.misses = misses
    }
  }

  /// The key of the counters; not under ``keyPrefix``, so no baby's name can reach it.
  public static let lookupsKey = "lastFeedAmountCache.lookups"

  /// The counters so far (zero when none were kept).
  public func lookups() throws -> Lookups {
    guard let data = try store.data(forKey: Self.lookupsKey) else { return Lookups() }
    do {
      return try JSONDecoder().decode(Lookups.self, from: data)
    } catch {
      throw KeyValueStoreError(
        code: .damaged, path: Self.lookupsKey,
        detail: "not the cache's hit and miss counters (\(FileKeyValueStore.reason(error))); remove it to start counting again")
    }
  }

  /// Counts one prefill lookup. Two processes counting at once may lose one count: telemetry,
  /// not data.
  public func countLookup(hit: Bool) throws {
    var counts = try lookups()
    if hit { counts.hits += 1 } else { counts.misses += 1 }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    try store.set(try encoder.encode(counts), forKey: Self.lookupsKey)
  }
}
