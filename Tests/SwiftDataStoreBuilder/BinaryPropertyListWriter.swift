import Foundation

/// Writes `bplist00` documents, including the UID values of keyed archives that
/// `PropertyListSerialization` cannot write. (Foundation's `NSKeyedArchiver` on Linux ignores
/// `setClassName(_:for:)`, so it cannot write an archive that names Core Data's classes.)
enum BinaryPropertyListWriter {
  indirect enum Node {
    case string(String)
    case integer(Int64)
    case uid(Int)
    case array([Node])
    case dictionary([(String, Node)])
  }

  static func data(of root: Node) -> Data {
    var encoded: [[UInt8]] = []
    func length(_ marker: UInt8, _ count: Int) -> [UInt8] {
      count < 15 ? [marker | UInt8(count)] : [marker | 0x0F, 0x13] + bigEndian(UInt64(count), 8)
    }
    func bigEndian(_ value: UInt64, _ size: Int) -> [UInt8] {
      (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
    func append(_ node: Node) -> Int {
      encoded.append([])
      let index = encoded.count - 1
      var bytes: [UInt8]
      switch node {
      case .string(let text):
        if text.allSatisfy(\.isASCII) {
          bytes = length(0x50, text.utf8.count) + Array(text.utf8)
        } else {
          let units = Array(text.utf16)
          bytes = length(0x60, units.count) + units.flatMap { bigEndian(UInt64($0), 2) }
        }
      case .integer(let value):
        bytes = [0x13] + bigEndian(UInt64(bitPattern: value), 8)
      case .uid(let value):
        bytes = [0x83] + bigEndian(UInt64(value), 4)
      case .array(let elements):
        let references = elements.map(append)
        bytes = length(0xA0, references.count) + references.flatMap { bigEndian(UInt64($0), 2) }
      case .dictionary(let pairs):
        let keys = pairs.map { append(.string($0.0)) }
        let values = pairs.map { append($0.1) }
        bytes = length(0xD0, pairs.count) + (keys + values).flatMap { bigEndian(UInt64($0), 2) }
      }
      encoded[index] = bytes
      return index
    }
    let top = append(root)
    var output = Array("bplist00".utf8)
    var offsets: [Int] = []
    for object in encoded {
      offsets.append(output.count)
      output += object
    }
    let tableStart = output.count
    for offset in offsets { output += bigEndian(UInt64(offset), 4) }
    output += [0, 0, 0, 0, 0, 0, 4, 2] + bigEndian(UInt64(encoded.count), 8) + bigEndian(UInt64(top), 8) + bigEndian(UInt64(tableStart), 8)
    return Data(output)
  }
}
