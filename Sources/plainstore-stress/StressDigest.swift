import Foundation

/// A fingerprint of a process's view of the store: FNV-1a (64 bit) over every item in id order,
/// so equal views print equal digests in every process.
enum StressDigest {
  static func of(_ items: [StressItem]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for item in items.sorted(by: { $0.id.uuidString < $1.id.uuidString }) {
      let line = "\(item.id.uuidString)|\(item.writer)|\(item.batch)|\(item.part)|\(item.at.timeIntervalSince1970)\n"
      for byte in line.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
      }
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}
