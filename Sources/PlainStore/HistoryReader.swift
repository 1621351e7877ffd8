/// One consumer of a store's history (an app extension, a sync engine) with its own token, kept in the
/// store's manifest so that every process sees it and compaction keeps what it has not read.
///
/// ```swift
/// let reader = container.historyReader(named: "extension")
/// for transaction in try reader.pending() { … }
/// try reader.markConsumed(through: container.currentToken)
/// ```
public struct HistoryReader: Sendable {
  public let name: String
  let coordinator: StoreCoordinator

  /// The token this reader has consumed through; nil before its first ``markConsumed(through:)``.
  public func token() throws -> HistoryToken? {
    try coordinator.readerToken(name)
  }

  /// The transactions after this reader's token.
  public func pending() throws -> [Transaction] {
    try coordinator.history(after: try token())
  }

  /// Moves this reader's token forward (or back); later transactions stay for it.
  public func markConsumed(through token: HistoryToken) throws {
    try coordinator.setReaderToken(name, token)
  }

  /// Forgets this reader: compaction no longer keeps history for it.
  public func unregister() throws {
    try coordinator.setReaderToken(name, nil)
  }
}
