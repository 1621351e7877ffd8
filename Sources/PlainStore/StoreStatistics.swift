import Foundation

/// Counters a test or a benchmark can read: how much of the store a piece of work touched.
public struct StoreStatistics: Sendable, Equatable {
  /// Segment files read from disk since the container opened.
  public var segmentFilesRead = 0
  /// Records appended to the local log by this container (its saves and merges).
  public var logRecordsWritten = 0
  /// Compactions this container ran.
  public var compactions = 0
  /// Times this container rebuilt the local cache from the change files.
  public var cacheRebuilds = 0
  /// Change files of other devices (or of a crashed commit of this one) merged in.
  public var changeFilesMerged = 0
  /// Merges that folded only the files that arrived, onto the objects they touch.
  public var arrivalOnlyMerges = 0
  /// Merges and rebuilds that folded every change file.
  public var fullFolds = 0
  /// Housekeeping after a durable commit (cache files, compaction) that failed: the commit
  /// stands; the cache is repaired from the change files at the next open.
  public var housekeepingFailures = 0
  /// This device's files moved from the outbox into the sync folder by this container.
  public var outboxFilesMoved = 0
}
