import Foundation
import Synchronization

/// `sync-account` in the store folder (the app group, not `local/`, which is only a cache): the
/// carrier's account this store syncs with, recorded the first time the carrier names one. A
/// store never carries files for another account: two accounts' changes must never mix.
final class SyncAccount: Sendable {
  let url: URL
  let displayPath: String
  /// The recorded identity once read (until then every look reads the file: another process
  /// may record it meanwhile).
  private let cached = StoreMutex<Data?>(nil)

  init(url: URL, displayPath: String) {
    self.url = url
    self.displayPath = displayPath
  }

  /// The identity recorded; nil when none is (or the file cannot be read: the next look tries again).
  var recorded: Data? {
    if let known = cached.withLock({ $0 }) { return known }
    guard let data = try? FileSystem.read(url, displayPath: displayPath),
      let identity = Data(base64Encoded: String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    else { return nil }
    cached.withLock { $0 = identity }
    return identity
  }

  /// Records `identity` as the account this store syncs with, durably.
  func record(_ identity: Data) throws {
    try FileSystem.writeAtomically(Data((identity.base64EncodedString() + "\n").utf8), to: url, displayPath: displayPath)
    cached.withLock { $0 = identity }
  }
}
