import Foundation

/// Which ids a segment file may hold: a Bloom filter over its objects' ids, kept in
/// `local/segment-ids` by file name (see `SegmentIDs.swift`). A merge that must find
/// another device's object by id alone asks each segment's filter and reads only the files that
/// may hold it (about 1 in 100 that do not), instead of reading the entity's every month.
///
/// Deterministic: the bits depend on the ids alone. Ids are random (UUID v4), so their own bytes
/// are the hashes (double hashing: bit i of k is h1 + i·h2 modulo the size).
struct SegmentIDFilter: Equatable, Sendable {
  private(set) var bits: [UInt8]
  static let hashes = 7
  /// Bits per id: with 7 hashes, about 1 % false positives.
  static let bitsPerID = 10

  init(_ ids: some Sequence<UUID>, count: Int) {
    bits = Array(repeating: 0, count: max(8, (count * Self.bitsPerID + 7) / 8))
    for id in ids {
      for hash in 0..<Self.hashes {
        let bit = position(id, hash)
        bits[bit >> 3] |= 1 << UInt8(bit & 7)
      }
    }
  }

  /// The filter `local/segment-ids` holds as text; nil when the text is not one.
  init?(text: String) {
    guard let data = Data(base64Encoded: text), !data.isEmpty else { return nil }
    bits = Array(data)
  }

  var text: String { Data(bits).base64EncodedString() }

  /// False only when the segment certainly does not hold `id`.
  func mayContain(_ id: UUID) -> Bool {
    (0..<Self.hashes).allSatisfy { hash in
      let bit = position(id, hash)
      return bits[bit >> 3] & (1 << UInt8(bit & 7)) != 0
    }
  }

  /// The bit of one of the id's hashes: two words of the id, combined (double hashing). One at
  /// a time, not an array of them: a segment's filter is built over tens of thousands of ids.
  private func position(_ id: UUID, _ hash: Int) -> Int {
    let words = _UUIDWords.words(id)
    let (h1, h2) = (UInt64(littleEndian: words.first), UInt64(littleEndian: words.second) | 1)
    return Int((h1 &+ UInt64(hash) &* h2) % UInt64(bits.count * 8))
  }
}
