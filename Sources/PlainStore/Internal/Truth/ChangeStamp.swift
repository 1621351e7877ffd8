/// Who wrote a value and when, in the order the merge ranks writers: the hybrid clock first,
/// then the device id, then the device's sequence number. Two different changes never share a
/// stamp, so "the last writer" is always one writer.
struct ChangeStamp: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  var hlc: UInt64
  var device: DeviceID
  var sequence: Int

  static func < (lhs: ChangeStamp, rhs: ChangeStamp) -> Bool {
    if lhs.hlc != rhs.hlc { return lhs.hlc < rhs.hlc }
    if lhs.device != rhs.device { return lhs.device < rhs.device }
    return lhs.sequence < rhs.sequence
  }

  /// `<hlc>.<device>.<sequence>`: fixed-width parts, so the text sorts as the stamp does.
  var description: String {
    HybridLogicalClock.text(hlc) + "." + device.text + "." + ChangeFileName.sequenceText(sequence)
  }

  init(hlc: UInt64, device: DeviceID, sequence: Int) {
    self.hlc = hlc
    self.device = device
    self.sequence = sequence
  }

  init?(_ text: String) {
    // Read as bytes, each part at its fixed place: every log entry and scan parses stamps, and
    // splitting the String by Characters cost a tenth of a log entry's decoding.
    guard let stamp = _ByteView.reading(text, Self.parse) else { return nil }
    self = stamp
  }

  /// `<16 hex>.<32 hex>.<12 digits>`, the only text `description` writes.
  private static func parse(_ bytes: _ByteView) -> ChangeStamp? {
    let deviceStart = 17
    let sequenceStart = deviceStart + 33
    guard bytes.count == sequenceStart + ChangeFileName.sequenceWidth, bytes[deviceStart - 1] == UInt8(ascii: "."),
      bytes[sequenceStart - 1] == UInt8(ascii: "."),
      let hlc = Digits.hex16Value(bytes.extracting(0..<(deviceStart - 1))),
      let sequence = Digits.value(bytes.extracting(sequenceStart..<bytes.count), width: ChangeFileName.sequenceWidth),
      HybridLogicalClock.isWritable(hlc), let device = DeviceID(bytes.string(deviceStart..<(sequenceStart - 1)))
    else { return nil }
    return ChangeStamp(hlc: hlc, device: device, sequence: Int(sequence))
  }

  init(from decoder: Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let stamp = ChangeStamp(text) else {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not a change stamp (hlc.device.sequence)."))
    }
    self = stamp
  }

  func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
