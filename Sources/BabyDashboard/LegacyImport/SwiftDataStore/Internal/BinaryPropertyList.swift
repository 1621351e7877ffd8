import Foundation

/// A reader of Apple's binary property lists (`bplist00`) that keeps what Foundation hides.
///
/// Why not `PropertyListSerialization`: an `NSKeyedArchiver` archive links its objects with UID
/// values, which Foundation hands back as a private class on Apple platforms and another one on
/// Linux. Reading the format ourselves (it is small and documented in CFBinaryPList.c) gives the
/// same ``Value`` everywhere.
enum BinaryPropertyList {
  indirect enum Value: Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case date(Double)
    case data(Data)
    case string(String)
    case uid(Int)
    case array([Value])
    case dictionary([String: Value])
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Parses `data`, a whole `bplist00` document.
  static func parse(_ data: Data) throws(Failure) -> Value {
    let bytes = [UInt8](data)
    guard bytes.count >= 40, bytes.prefix(8).elementsEqual(Array("bplist00".utf8)) else {
      throw Failure(description: "not a binary property list")
    }
    let trailer = bytes.count - 32
    let offsetSize = Int(bytes[trailer + 6])
    let referenceSize = Int(bytes[trailer + 7])
    let count = Int(clamping: number(bytes, trailer + 8, 8))
    let top = Int(clamping: number(bytes, trailer + 16, 8))
    let tableStart = Int(clamping: number(bytes, trailer + 24, 8))
    guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count > 0, top < count,
      tableStart >= 8, tableStart <= trailer, count <= (trailer - tableStart) / offsetSize
    else {
      throw Failure(description: "its trailer is damaged")
    }
    let offsets = (0..<count).map { Int(clamping: number(bytes, tableStart + $0 * offsetSize, offsetSize)) }
    var parser = Parser(bytes: bytes, offsets: offsets, referenceSize: referenceSize, end: tableStart)
    return try parser.value(at: top, depth: 0)
  }

  private static func number(_ bytes: [UInt8], _ start: Int, _ size: Int) -> UInt64 {
    guard start >= 0, size >= 0, start + size <= bytes.count else { return .max }
    return bytes[start..<start + size].reduce(0) { $0 << 8 | UInt64($1) }
  }

  private struct Parser {
    let bytes: [UInt8]
    let offsets: [Int]
    let referenceSize: Int
    let end: Int
    var cache: [Int: Value] = [:]

    mutating func value(at index: Int, depth: Int) throws(Failure) -> Value {
      if let known = cache[index] { return known }
      // Archives are trees of references; a deeper one is a loop in a damaged file.
      guard depth < 512, index >= 0, index < offsets.count else { throw Failure(description: "object \(index) is out of range") }
      let start = offsets[index]
      guard start >= 8, start < end else { throw Failure(description: "object \(index) starts outside the document") }
      let marker = bytes[start]
      let low = Int(marker & 0x0F)
      let value: Value
      switch marker >> 4 {
      case 0x0:
        switch marker {
        case 0x08: value = .bool(false)
        case 0x09: value = .bool(true)
        default: value = .null
        }
      case 0x1:
        let size = 1 << low
        let raw = number(bytes, start + 1, min(size, 8))
        value = .integer(size >= 8 ? Int64(bitPattern: raw) : Int64(raw))
      case 0x2:
        let raw = number(bytes, start + 1, 1 << low)
        value = .real(low == 2 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw))) : Double(bitPattern: raw))
      case 0x3:
        value = .date(Double(bitPattern: number(bytes, start + 1, 8)))
      case 0x4:
        let (length, first) = try counted(start, low)
        value = .data(Data(try slice(first, length)))
      case 0x5:
        let (length, first) = try counted(start, low)
        value = .string(String(decoding: try slice(first, length), as: UTF8.self))
      case 0x6:
        let (length, first) = try counted(start, low)
        guard length <= end else { throw Failure(description: "a string at \(first) runs past the document") }
        let raw = try slice(first, length * 2)  // no overflow: length is at most the document's size
        let units = stride(from: raw.startIndex, to: raw.endIndex, by: 2).map { UInt16(raw[$0]) << 8 | UInt16(raw[$0 + 1]) }
        value = .string(String(decoding: units, as: UTF16.self))
      case 0x8:
        value = .uid(Int(clamping: number(bytes, start + 1, low + 1)))
      case 0xA, 0xC:
        let (length, first) = try counted(start, low)
        value = .array(try references(first, length).map { reference throws(Failure) in try self.value(at: reference, depth: depth + 1) })
      case 0xD:
        let (length, first) = try counted(start, low)
        let keys = try references(first, length)
        let values = try references(first + length * referenceSize, length)
        var dictionary: [String: Value] = [:]
        for (key, object) in zip(keys, values) {
          guard case .string(let name) = try self.value(at: key, depth: depth + 1) else { continue }
          dictionary[name] = try self.value(at: object, depth: depth + 1)
        }
        value = .dictionary(dictionary)
      default:
        throw Failure(description: "object \(index) has an unknown marker 0x\(String(marker, radix: 16))")
      }
      cache[index] = value
      return value
    }

    /// A length from the marker's low nibble, or from the integer after it when the nibble is 0xF.
    private func counted(_ start: Int, _ low: Int) throws(Failure) -> (length: Int, first: Int) {
      guard low == 0x0F else { return (low, start + 1) }
      guard start + 1 < end, bytes[start + 1] >> 4 == 0x1 else { throw Failure(description: "a length at \(start) is damaged") }
      let size = 1 << Int(bytes[start + 1] & 0x0F)
      return (Int(clamping: number(bytes, start + 2, size)), start + 2 + size)
    }

    private func slice(_ first: Int, _ length: Int) throws(Failure) -> ArraySlice<UInt8> {
      // Lengths come from the file and may be anything up to Int.max: compare without adding.
      guard length >= 0, first <= end, length <= end - first else { throw Failure(description: "an object at \(first) runs past the document") }
      return bytes[first..<first + length]
    }

    private func references(_ first: Int, _ count: Int) throws(Failure) -> [Int] {
      guard count >= 0, first <= end, count <= (end - first) / referenceSize else {
        throw Failure(description: "a collection at \(first) runs past the document")
      }
      return (0..<count).map { Int(clamping: number(bytes, first + $0 * referenceSize, referenceSize)) }
    }
  }
}
