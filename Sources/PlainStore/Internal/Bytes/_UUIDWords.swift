import Foundation

/// A UUID's sixteen bytes as two 64-bit words, loaded as they lie in memory (the machine's
/// byte order): `UInt64(bigEndian:)` of them orders UUIDs byte by byte, `UInt64(littleEndian:)`
/// hashes them the same on every machine. One load each: ids are ordered and hashed by the
/// thousand on every save and every segment filter.
enum _UUIDWords {
  @inline(__always) static func words(_ id: UUID) -> (first: UInt64, second: UInt64) {
    withUnsafeBytes(of: id.uuid) {
      ($0.loadUnaligned(fromByteOffset: 0, as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    }
  }
}
