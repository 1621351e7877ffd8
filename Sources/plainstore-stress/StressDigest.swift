import Foundation
import PlainStore

/// A fingerprint of a process's view of the store: FNV-1a (64 bit) over every item in id order,
/// so equal views print equal digests in every process.
enum StressDigest {
  static func of(_ items: [StressItem]) -> String {
    var hash = FNV1a.offsetBasis
    for item in items.sorted(by: { $0.id.uuidString < $1.id.uuidString }) {
      let line = "\(item.id.uuidString)|\(item.writer)|\(item.batch)|\(item.part)|\(item.at.timeIntervalSince1970)\n"
      hash = FNV1a.hash(line.utf8, from: hash)
    }
    return Digits.hex16(hash)
  }
}
