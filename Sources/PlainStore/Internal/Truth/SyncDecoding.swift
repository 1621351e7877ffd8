/// The two texts every sync file carries, read with one message each when they are not what
/// they must be.
extension KeyedDecodingContainer {
  /// A device id (32 lowercase hex digits) at `key`.
  func decodeDeviceID(forKey key: Key) throws -> DeviceID {
    let text = try decode(String.self, forKey: key)
    return try deviceID(text, forKey: key)
  }

  /// `text` as a device id; `key` names where it was read (a dictionary's key, say).
  func deviceID(_ text: String, forKey key: Key) throws -> DeviceID {
    guard let device = DeviceID(text) else {
      throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "'\(text)' is not a device id.")
    }
    return device
  }

  /// A hybrid-logical-clock stamp (16 lowercase hex digits) at `key`.
  func decodeClock(forKey key: Key) throws -> UInt64 {
    let text = try decode(String.self, forKey: key)
    guard let stamp = HybridLogicalClock.parse(text) else {
      throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "'\(text)' is not a clock stamp.")
    }
    guard HybridLogicalClock.isWritable(stamp) else {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: self, debugDescription: "'\(text)' is a clock stamp past the year 9999, which no clock writes: the file is damaged.")
    }
    return stamp
  }
}
