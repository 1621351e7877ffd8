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
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let hlc = HybridLogicalClock.parse(parts[0]), HybridLogicalClock.isWritable(hlc), let device = DeviceID(String(parts[1])),
      let sequence = ChangeFileName.parseSequence(parts[2])
    else { return nil }
    self.init(hlc: hlc, device: device, sequence: sequence)
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
