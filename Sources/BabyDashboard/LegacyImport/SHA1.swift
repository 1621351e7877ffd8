/// SHA-1 (FIPS 180-4), written here because the package takes no dependencies and Foundation
/// has no digest on Linux.
///
/// Used only to derive name-based UUIDs (RFC 9562 version 5), where SHA-1 is what the RFC names;
/// it is not used for anything that needs collision resistance against an attacker.
struct SHA1 {
  private var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
  private var buffer: [UInt8] = []
  private var length: UInt64 = 0

  /// The 20-byte digest of `bytes`.
  static func digest(_ bytes: [UInt8]) -> [UInt8] {
    var hasher = SHA1()
    hasher.update(bytes)
    return hasher.finalize()
  }

  mutating func update(_ bytes: [UInt8]) {
    length &+= UInt64(bytes.count)
    buffer.append(contentsOf: bytes)
    var offset = 0
    while buffer.count - offset >= 64 {
      compress(buffer[offset..<offset + 64])
      offset += 64
    }
    buffer.removeFirst(offset)
  }

  mutating func finalize() -> [UInt8] {
    let bitLength = length &* 8
    var padding: [UInt8] = [0x80]
    while (buffer.count + padding.count) % 64 != 56 { padding.append(0) }
    for shift in stride(from: 56, through: 0, by: -8) { padding.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
    buffer.append(contentsOf: padding)
    var offset = 0
    while offset < buffer.count {
      compress(buffer[offset..<offset + 64])
      offset += 64
    }
    buffer = []
    var digest: [UInt8] = []
    for word in [state.0, state.1, state.2, state.3, state.4] {
      for shift in stride(from: 24, through: 0, by: -8) { digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
    }
    return digest
  }

  private mutating func compress(_ block: ArraySlice<UInt8>) {
    var w = [UInt32](repeating: 0, count: 80)
    let base = block.startIndex
    for i in 0..<16 {
      w[i] = UInt32(block[base + 4 * i]) << 24 | UInt32(block[base + 4 * i + 1]) << 16
        | UInt32(block[base + 4 * i + 2]) << 8 | UInt32(block[base + 4 * i + 3])
    }
    for i in 16..<80 { w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1) }
    var (a, b, c, d, e) = state
    for i in 0..<80 {
      let f: UInt32
      let k: UInt32
      switch i {
      case 0..<20: f = (b & c) | (~b & d); k = 0x5A82_7999
      case 20..<40: f = b ^ c ^ d; k = 0x6ED9_EBA1
      case 40..<60: f = (b & c) | (b & d) | (c & d); k = 0x8F1B_BCDC
      default: f = b ^ c ^ d; k = 0xCA62_C1D6
      }
      let temp = rotl(a, 5) &+ f &+ e &+ k &+ w[i]
      e = d
      d = c
      c = rotl(b, 30)
      b = a
      a = temp
    }
    state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
  }

  private func rotl(_ x: UInt32, _ n: UInt32) -> UInt32 { (x << n) | (x >> (32 - n)) }
}
