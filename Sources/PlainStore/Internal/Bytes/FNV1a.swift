import Foundation

/// FNV-1a, 64 bits: the package's one checksum and fingerprint — of change files, journal and
/// log records, segments, preference files, derived ids. It tells damage from a whole file; it
/// is not a signature. Hashing on from a previous result (`from:`) equals hashing the bytes
/// joined.
package enum FNV1a {
  package static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
  static let prime: UInt64 = 0x0000_0100_0000_01b3

  package static func hash(_ data: Data, from seed: UInt64 = offsetBasis) -> UInt64 {
    _ByteView.reading(data) { hash($0, from: seed) }
  }

  package static func hash(_ bytes: some Sequence<UInt8>, from seed: UInt64 = offsetBasis) -> UInt64 {
    _ByteView.reading(bytes) { hash($0, from: seed) }
  }

  /// The one loop. Over bytes in place: Data's iterator costs several times the hashing
  /// itself, and every change file, journal record and segment is hashed once per write and
  /// once per read.
  static func hash(_ bytes: _ByteView, from seed: UInt64 = offsetBasis) -> UInt64 {
    var hash = seed
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* prime
    }
    return hash
  }
}
