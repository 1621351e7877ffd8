import Foundation
import Testing

@testable import PlainStore

/// FNV-1a 64 gives the published values whatever holds the bytes, and hashing on from a
/// previous result equals hashing the bytes joined: every checksum on disk depends on both.
@Suite struct FNV1aTests {
  /// From the FNV reference test suite (fnv-1a 64).
  @Test(arguments: [
    ("", UInt64(0xcbf2_9ce4_8422_2325)), ("a", 0xaf63_dc4c_8601_ec8c), ("b", 0xaf63_df4c_8601_f1a5), ("foobar", 0x8594_4171_f739_67e8),
  ])
  func knownVectors(_ text: String, _ expected: UInt64) {
    #expect(FNV1a.hash(Data(text.utf8)) == expected, "Data")
    #expect(FNV1a.hash(Array(text.utf8)) == expected, "an array")
    #expect(FNV1a.hash(text.utf8) == expected, "a String's UTF-8")
    #expect(FNV1a.hash(text.utf8.lazy.map { $0 }) == expected, "bytes that are not contiguous")
    #expect(FNV1a.hash(Array(text.utf8)[...]) == expected, "a slice")
  }

  @Test func hashingOnEqualsHashingTheBytesJoined() {
    let whole = Array("a journal record, then its body".utf8)
    for split in [0, 1, 10, whole.count] {
      let first = FNV1a.hash(whole[..<split])
      #expect(FNV1a.hash(Data(whole[split...]), from: first) == FNV1a.hash(whole), "split at \(split)")
    }
  }

  @Test func aChangedByteChangesTheHash() {
    var bytes = Array(repeating: UInt8(0), count: 64)
    let original = FNV1a.hash(bytes)
    for index in bytes.indices {
      bytes[index] = 1
      #expect(FNV1a.hash(bytes) != original, "byte \(index)")
      bytes[index] = 0
    }
  }
}
