import Foundation

/// A baby whose feeds and diaper changes the app tracks.
///
/// As <doc:DataModel> maps it: `createdAt` is new and orders the dashboard's tiles;
/// the SwiftData-era `lastFeedAmountValue` / `lastFeedAmountUnitSymbol` are gone and live in
/// ``LastFeedAmountCache`` instead.
public struct BabyProfile: Codable, Sendable, Hashable, Identifiable {
  /// The default time between two feeds: three hours.
  public static let defaultFeedTerm: TimeInterval = 10_800

  /// Stable identity; unique in the store.
  public var id: UUID
  /// The name shown on the screens (the last-feed-amount cache is keyed by ``id``, not by it).
  public var name: String
  /// Seconds from the start of one feed until the next one is due.
  public var feedTerm: TimeInterval
  /// When the baby was added; the screens list babies by it, oldest first.
  public var createdAt: Date

  /// Creates a baby profile.
  ///
  /// `createdAt` has no default: pass the time from the caller's clock, so that tests and
  /// previews stay deterministic.
  public init(id: UUID = UUID(), name: String, feedTerm: TimeInterval = BabyProfile.defaultFeedTerm, createdAt: Date) {
    self.id = id
    self.name = name
    self.feedTerm = feedTerm
    self.createdAt = createdAt
  }
}
