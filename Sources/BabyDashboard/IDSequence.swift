import Foundation
import PlainStore

/// The fixed UUIDs of a preview world: `n` always gives the same UUID.
///
/// Scenarios take their babies' ids from it, so a scenario seeded twice, on two machines, holds
/// the same ids; a different `namespace` gives another, non-overlapping sequence.
///
/// ```swift
/// IDSequence().uuid(1)  // 00000000-0000-4000-8000-000000000001
/// ```
public struct IDSequence: Sendable, Hashable {
  /// Written into bytes 0–3 of every UUID of the sequence.
  public var namespace: UInt32

  public init(namespace: UInt32 = 0) {
    self.namespace = namespace
  }

  /// The `n`th UUID of the sequence (a version-4 layout with the number in its last 8 bytes).
  public func uuid(_ n: Int) -> UUID {
    let ns = namespace
    let value = UInt64(bitPattern: Int64(n))
    func byte(_ word: UInt64, _ shift: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: word >> shift) }
    let nsWord = UInt64(ns)
    return UUID(uuid: (
      byte(nsWord, 24), byte(nsWord, 16), byte(nsWord, 8), byte(nsWord, 0),
      0x00, 0x00, 0x40, 0x00, 0x80, 0x00,
      byte(value, 40), byte(value, 32), byte(value, 24), byte(value, 16), byte(value, 8), byte(value, 0)))
  }

  /// A UUID that depends only on `parts`: the identity of a built feed or diaper change, so that
  /// the same fixture always has the same uuid whatever order it was built in.
  ///
  /// Two FNV-1a hashes over the parts' UTF-8 bytes, in the UUID version-8 (custom) layout.
  public static func derived(from parts: [String]) -> UUID {
    var bytes: [UInt8] = []
    for part in parts {
      bytes.append(contentsOf: Array(part.utf8))
      bytes.append(0x1F)  // a separator, so ["ab", "c"] and ["a", "bc"] differ
    }
    let high = FNV1a.hash(bytes)
    let low = FNV1a.hash(bytes, from: 0x84222325_CBF29CE4)
    func byte(_ word: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * index)) }
    return UUID(uuid: (
      byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5),
      (byte(high, 6) & 0x0F) | 0x80, byte(high, 7),
      (byte(low, 0) & 0x3F) | 0x80, byte(low, 1), byte(low, 2), byte(low, 3),
      byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)))
  }
}
