import Foundation

/// One JSON value kept as its exact text: how the merge moves a property from one value of an
/// entity to another without knowing its type and without a lossy detour (an Int64 above 2^53
/// stays itself, a date keeps every digit).
///
/// `StoreJSONDecoder` captures the text of the value in place, and `StoreJSONEncoder` writes
/// it back byte for byte; other coders see a plain string, which is never what a store file
/// holds.
struct RawJSON: Codable, Hashable, Sendable, CustomStringConvertible {
  /// Minified UTF-8 JSON text of one value.
  var bytes: [UInt8]

  init(bytes: [UInt8]) { self.bytes = bytes }

  static let null = RawJSON(bytes: Array("null".utf8))

  var isNull: Bool { bytes == Self.null.bytes }

  var description: String { String(decoding: bytes, as: UTF8.self) }

  init(from decoder: Decoder) throws {
    // Reached only through a coder other than the store's: the store's reads the text itself.
    bytes = Array(try decoder.singleValueContainer().decode(String.self).utf8)
  }

  func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}

extension RawJSON {
  /// The text of an object of `members`, in the dictionary's order: for a decoder, which finds
  /// members by name. Not for a file, whose members the encoder sorts. Through the encoder, a
  /// merge's objects cost a sixth of a join's decoding time (sorting, per-member containers).
  static func objectText(_ members: [String: RawJSON]) -> Data {
    let writer = JSONWriter(capacity: members.reduce(2) { $0 + $1.key.utf8.count + $1.value.bytes.count + 4 })
    writer.append(UInt8(ascii: "{"))
    for (position, (name, value)) in members.enumerated() {
      if position > 0 { writer.append(UInt8(ascii: ",")) }
      writer.appendString(name)
      writer.append(UInt8(ascii: ":"))
      value.bytes.withUnsafeBytes { writer.append($0) }
    }
    writer.append(UInt8(ascii: "}"))
    return writer.takeData()
  }
}

extension JSONDocument {
  /// The minified text of the value at `index`: scalars as their bytes in the document (a
  /// string keeps its escapes), containers rebuilt from their members in document order.
  func rawText(_ index: Int) -> [UInt8] {
    var out: [UInt8] = []
    appendRawText(index, to: &out)
    return out
  }

  private func appendRawText(_ index: Int, to out: inout [UInt8]) {
    let node = nodes[index]
    switch node.kind {
    case .null: out.append(contentsOf: "null".utf8)
    case .true: out.append(contentsOf: "true".utf8)
    case .false: out.append(contentsOf: "false".utf8)
    case .number: out.append(contentsOf: slice(node))
    case .string:
      out.append(UInt8(ascii: "\""))
      out.append(contentsOf: slice(node))
      out.append(UInt8(ascii: "\""))
    case .array:
      out.append(UInt8(ascii: "["))
      var child = index + 1
      for position in 0..<Int(node.count) {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        appendRawText(child, to: &out)
        child = next(child)
      }
      out.append(UInt8(ascii: "]"))
    case .object:
      out.append(UInt8(ascii: "{"))
      var child = index + 1
      for position in 0..<Int(node.count) {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        appendRawText(child, to: &out)
        out.append(UInt8(ascii: ":"))
        appendRawText(child + 1, to: &out)
        child = next(child + 1)
      }
      out.append(UInt8(ascii: "}"))
    }
  }
}
