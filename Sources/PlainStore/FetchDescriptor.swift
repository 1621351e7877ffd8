import Foundation

/// What to fetch: SwiftData's `FetchDescriptor`, which Foundation on Linux does not have.
///
/// ```swift
/// let id = work.id
/// var recent = FetchDescriptor<Note>(
///   predicate: #Predicate { $0.notebookID == id },
///   sortBy: [SortDescriptor(\.createdAt, order: .reverse)])
/// recent.fetchLimit = 1
/// let last = try context.fetch(recent).first
/// ```
/// Capture values in local constants before the predicate: `#Predicate` cannot call functions.
public struct FetchDescriptor<E: Entity>: Sendable {
  public var predicate: Predicate<E>?
  public var sortBy: [SortDescriptor<E>]
  public var fetchLimit: Int?
  public var fetchOffset: Int?
  /// Only objects whose segment key (``EntitySchema`` `segmentedBy`) lies in this range; the
  /// store reads only the months it covers. Ignored for entities without a segment key.
  ///
  /// Optional when the predicate bounds the segment key itself: `#Predicate { $0.startTime >= a
  /// && $0.startTime < b }` (comparisons with constants, joined by `&&`) reads only the months
  /// from `a` to `b` as well.
  public var dateRange: Range<Date>?
  /// Whether the context's unsaved inserts, updates and deletes show in the result (as in Core Data).
  public var includePendingChanges = true

  public init(predicate: Predicate<E>? = nil, sortBy: [SortDescriptor<E>] = []) {
    self.predicate = predicate
    self.sortBy = sortBy
  }
}
