import Foundation

/// Writes the one value of the level it belongs to.
struct JSONSingleValueEncodingContainer: SingleValueEncodingContainer {
  let encoder: JSONEncoding
  let level: Int
  let depth: Int

  var codingPath: [any CodingKey] { Array(encoder.path.prefix(depth)) }

  /// Claims the level: a single value container writes once.
  private func claim() {
    precondition(
      encoder.levels[level].kind == .empty,
      "Attempt to encode value through single value container when previously value already encoded.")
    encoder.levels[level].kind = .single
  }

  func encodeNil() throws {
    claim()
    encoder.writer.append("null")
  }

  func encode(_ value: Bool) throws {
    claim()
    encoder.writer.append(value ? "true" : "false")
  }

  func encode(_ value: String) throws {
    claim()
    encoder.writer.appendString(value)
  }

  func encode(_ value: Double) throws {
    claim()
    try encoder.encodeDouble(value, key: nil)
  }

  func encode(_ value: Float) throws {
    claim()
    try encoder.encodeFloat(value, key: nil)
  }

  func encode(_ value: Int) throws {
    claim()
    encoder.writer.appendInt(value)
  }

  func encode(_ value: Int8) throws { integer(value) }
  func encode(_ value: Int16) throws { integer(value) }
  func encode(_ value: Int32) throws { integer(value) }
  func encode(_ value: Int64) throws { integer(value) }
  func encode(_ value: UInt) throws { integer(value) }
  func encode(_ value: UInt8) throws { integer(value) }
  func encode(_ value: UInt16) throws { integer(value) }
  func encode(_ value: UInt32) throws { integer(value) }
  func encode(_ value: UInt64) throws { integer(value) }

  private func integer<I: BinaryInteger>(_ value: I) {
    claim()
    encoder.writer.appendInteger(value)
  }

  func encode<T: Encodable>(_ value: T) throws {
    claim()
    try encoder.encodeValue(value, key: nil)
  }
}
