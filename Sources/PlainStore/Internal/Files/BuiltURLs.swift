import Foundation

/// URLs built once and looked up after: on Linux building a URL parses it, and a commit or a
/// scan asks for the same few (the devices' folders) every time. Holds at most `limit`; past
/// it, it starts over, so keys that come and go never pile up.
final class BuiltURLs<Key: Hashable & Sendable>: Sendable {
  private let known = StoreMutex<[Key: URL]>([:])
  private let limit: Int

  init(limit: Int = 16) {
    self.limit = limit
  }

  func url(_ key: Key, build: () -> URL) -> URL {
    if let url = known.withLock({ $0[key] }) { return url }
    let url = build()
    known.withLock { known in
      if known.count >= limit { known = [:] }
      known[key] = url
    }
    return url
  }
}
