import Foundation

extension JSONEncoding {
  // MARK: Values

  /// Encodes a value in place, under `key` when it is a member or element (for its coding path).
  func encodeValue<T: Encodable>(_ value: T, key: (any CodingKey)?) throws {
    if try encodeFast(value, key: key) { return }
    if let key { path.append(key) }
    defer { if key != nil { path.removeLast() } }
    begin()
    do {
      // The records a commit writes by the hundred thousand skip Codable's containers.
      if T.self == ObjectChange.self {
        try encodeRecord(unsafeBitCast(value, to: ObjectChange.self))
      } else if T.self == LogChange.self {
        try encodeRecord(unsafeBitCast(value, to: LogChange.self))
      } else if T.self == LogEntry.self {
        try encodeRecord(unsafeBitCast(value, to: LogEntry.self))
      } else if T.self == [String: String].self {
        // The segments' id filters (170 KB at 100k objects) and the manifest's table of
        // segments, written at every compaction under the store's lock.
        try encodeDictionary(unsafeBitCast(value, to: [String: String].self))
      } else if T.self == [String: [String: SegmentEntry]].self {
        try encodeDictionary(unsafeBitCast(value, to: [String: [String: SegmentEntry]].self))
      } else if T.self == [String: SegmentEntry].self {
        try encodeDictionary(unsafeBitCast(value, to: [String: SegmentEntry].self))
      } else if T.self == SegmentEntry.self {
        try encodeRecord(unsafeBitCast(value, to: SegmentEntry.self))
      } else {
        try value.encode(to: self)
      }
    } catch {
      abandon()
      throw error
    }
    end()
  }

  /// A record written member by member into the level `encodeValue` began (see `JSONRecord`).
  private func encodeRecord(_ record: some JSONRecord) throws {
    let level = levels.count - 1
    levels[level].kind = .object
    writer.append(UInt8(ascii: "{"))
    var members = DirectRecordMembers(encoding: self, level: level)
    try record.encodeMembers(&members)
  }

  /// A dictionary keyed by strings, its members written in key order (bytewise UTF-8, as
  /// `rebuildObject` sorts them): sorting the pairs first costs a fraction of what Codable's
  /// container and the rebuild after it cost.
  private func encodeDictionary<Value: Encodable>(_ dictionary: [String: Value]) throws {
    let level = levels.count - 1
    levels[level].kind = .object
    writer.append(UInt8(ascii: "{"))
    // The keys alone are sorted: moving (key, value) pairs costs more than looking each up.
    for key in dictionary.keys.sorted(by: Self.keyPrecedes) {
      beginRecordMember(key, level: level)
      try encodeValue(dictionary[key].unsafelyUnwrapped, key: JSONCodingKey(stringValue: key))
    }
  }

  /// The types with a fixed JSON form, written without a level of their own.
  private func encodeFast<T: Encodable>(_ value: T, key: (any CodingKey)?) throws -> Bool {
    // Metatype comparisons rather than `as?` casts: they cost nothing for the other types.
    if T.self == String.self {
      writer.appendString(unsafeBitCast(value, to: String.self))
    } else if T.self == Date.self {
      try encodeDate(unsafeBitCast(value, to: Date.self), key: key)
    } else if T.self == UUID.self {
      writer.appendUUID(unsafeBitCast(value, to: UUID.self))
    } else if T.self == Double.self {
      try encodeDouble(unsafeBitCast(value, to: Double.self), key: key)
    } else if T.self == Int.self {
      writer.appendInt(unsafeBitCast(value, to: Int.self))
    } else if T.self == Bool.self {
      writer.append(unsafeBitCast(value, to: Bool.self) ? "true" : "false")
    } else if T.self == URL.self {
      writer.appendString((value as! URL).absoluteString)
    } else if T.self == Data.self {
      writer.appendString((value as! Data).base64EncodedString())
    } else if T.self == RawJSON.self {
      unsafeBitCast(value, to: RawJSON.self).bytes.withUnsafeBytes { writer.append($0) }
    } else {
      return false
    }
    return true
  }

  /// A date the reader accepts, or `EncodingError.invalidValue` (the writer would otherwise
  /// write text the reader calls damaged, or trap).
  func encodeDate(_ value: Date, key: (any CodingKey)?) throws {
    // The error carries the date's text, not the Date: Foundation's `Date.description`, which
    // printing the error calls, traps on NaN and on ±1e19 s.
    guard StorableValue.isStorable(value) else {
      throw unstorable(ISO8601.describe(value), StorableValue.refusal(value), key: key)
    }
    writer.appendDate(value)
  }

  func encodeDouble(_ value: Double, key: (any CodingKey)?) throws {
    guard StorableValue.isStorable(value) else { throw unstorable(value, StorableValue.refusal(value), key: key) }
    writer.appendDouble(value)
  }

  func encodeFloat(_ value: Float, key: (any CodingKey)?) throws {
    guard StorableValue.isStorable(Double(value)) else {
      throw unstorable(value, StorableValue.refusal(Double(value)), key: key)
    }
    writer.appendFloat(value)
  }

  private func unstorable(_ value: Any, _ reason: String, key: (any CodingKey)?) -> EncodingError {
    var path = self.path
    if let key { path.append(key) }
    return .invalidValue(value, .init(codingPath: path, debugDescription: reason))
  }
}
