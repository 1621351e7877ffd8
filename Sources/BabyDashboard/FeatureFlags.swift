import Foundation

/// The switches of the rollout phases that apply to this package, with their backout paths.
///
/// - ``lastFeedAmountCache`` (Phase A). Off is the backout: the dashboard and the edit form
///   neither read nor write ``LastFeedAmountCache``; the amount shown and prefilled comes from
///   the most recent feed with an amount in the store, as before the cache existed; the
///   backfill (``LastFeedAmountCache/backfill(from:flags:)``) does not run. Values already
///   cached stay untouched, so turning it back on loses nothing.
/// - ``legacyImporter`` (Phase B). Off is the backout: the importer does not run and the legacy
///   data is never modified, so the app continues on what it had without data loss.
///
/// These are the values the app obeys; ``RolloutFlags`` resolves them for this device from the
/// flags document in the app group (states, cohorts, minimum versions), the per-device switches
/// of the app group's ``KeyValueStore`` (keys `featureFlag.<name>`, JSON `true`/`false`, read by
/// ``load(from:)``) and the built-in defaults. Tests and previews pass a value instead.
public struct FeatureFlags: Sendable, Hashable, Codable {
  /// Whether the last-feed-amount cache is used (Phase A).
  public var lastFeedAmountCache: Bool
  /// Whether the legacy importer may run (Phase B).
  public var legacyImporter: Bool

  /// Creates a set of flags; both default to on, the state after the rollout.
  public init(lastFeedAmountCache: Bool = true, legacyImporter: Bool = true) {
    self.lastFeedAmountCache = lastFeedAmountCache
    self.legacyImporter = legacyImporter
  }

  /// The flags when nothing is stored: everything on.
  public static let defaults = FeatureFlags()

  /// One flag, and its key in the key-value store.
  public enum Flag: String, Sendable, CaseIterable {
    case lastFeedAmountCache
    case legacyImporter

    /// The key: `featureFlag.<name>`.
    public var key: String { "featureFlag.\(rawValue)" }

    /// The setting when neither the flags document nor a per-device switch sets it
    /// (``RolloutFlags``): on, the state after the rollout, as ``FeatureFlags/defaults``.
    public var builtIn: FlagDocument.Entry {
      switch self {
      case .lastFeedAmountCache: return FlagDocument.Entry(state: .on, owner: "built in: Phase A, the last feed amount cache")
      case .legacyImporter: return FlagDocument.Entry(state: .on, owner: "built in: Phase B, the SwiftData import")
      }
    }
  }

  /// The value of one flag.
  public subscript(flag: Flag) -> Bool {
    get {
      switch flag {
      case .lastFeedAmountCache: return lastFeedAmountCache
      case .legacyImporter: return legacyImporter
      }
    }
    set {
      switch flag {
      case .lastFeedAmountCache: lastFeedAmountCache = newValue
      case .legacyImporter: legacyImporter = newValue
      }
    }
  }

  /// The flags stored in `store`, with ``defaults`` for those not set.
  ///
  /// - Throws: ``KeyValueStoreError`` if the store cannot be read or a flag is not `true`/`false`.
  public static func load(from store: any KeyValueStore) throws -> FeatureFlags {
    var flags = FeatureFlags.defaults
    for flag in Flag.allCases {
      guard let data = try store.data(forKey: flag.key) else { continue }
      guard let value = try? JSONDecoder().decode(Bool.self, from: data) else {
        throw KeyValueStoreError(
          code: .damaged, path: flag.key,
          detail: "a feature flag must be JSON true or false, found \(String(decoding: data, as: UTF8.self).debugDescription); "
            + "set it again or remove it for the default")
      }
      flags[flag] = value
    }
    return flags
  }

  /// Stores one flag, or removes it (back to the default) when `value` is `nil`.
  public static func set(_ flag: Flag, to value: Bool?, in store: any KeyValueStore) throws {
    if let value {
      try store.set(Data((value ? "true" : "false").utf8), forKey: flag.key)
    } else {
      try store.remove(forKey: flag.key)
    }
  }
}
