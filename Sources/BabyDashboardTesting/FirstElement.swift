/// The first element of `stream`, or nil after `timeout` (a ``ResponsiveDeadline``).
public func firstElement<Element: Sendable>(of stream: AsyncStream<Element>, within timeout: Duration) async -> Element? {
  await firstElement(of: stream, within: timeout) { _ in true }
}

/// The first element of `sequence` that satisfies `condition`, or nil after `timeout` (a
/// ``ResponsiveDeadline``).
///
/// - Throws: what the sequence throws.
public func firstElement<S: AsyncSequence & Sendable>(
  of sequence: S, within timeout: Duration, where condition: @escaping @Sendable (S.Element) -> Bool
) async rethrows -> S.Element? where S.Element: Sendable {
  try await withThrowingTaskGroup(of: S.Element?.self) { group in
    group.addTask {
      for try await element in sequence where condition(element) { return element }
      return nil
    }
    group.addTask {
      await ResponsiveDeadline(timeout).expire()
      return nil
    }
    let result = try await group.next() ?? nil
    group.cancelAll()
    return result
  }
}
