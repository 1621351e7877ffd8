import Foundation

/// The bytes of a change file: the change as sorted-key JSON inside an envelope that carries
/// its checksum, `{"checksum":"<16 hex digits>","change":{…}}` and a newline. The checksum
/// (FNV-1a, 64 bits) covers the change's bytes exactly as written, so a truncated, damaged or
/// half-synced file is told from a complete one without trusting its length or its name.
enum ChangeFileCodec {
  private static let prefix = Array(#"{"checksum":""#.utf8)
  private static let suffix = Array("}\n".utf8)

  /// The key the body sits under: "change" for a change file, "snapshot" for a snapshot.
  private static func middle(_ key: String) -> [UInt8] { Array("\",\"\(key)\":".utf8) }

  static func encode(_ change: ChangeFile) throws -> Data {
    // Room for every object's JSON as the check made it, and its entity, id and kind.
    let size = change.objects.reduce(512) { $0 + ($1.encodedValue?.bytes.count ?? 256) + 128 }
    return try sealed(change, under: "change", capacity: size)
  }

  static func encode(_ snapshot: ChangeSnapshot) throws -> Data {
    try sealed(snapshot, under: "snapshot", capacity: 4096)
  }

  /// The envelope, the body and the end in one buffer, the checksum filled in once the body is
  /// there.
  private static func sealed<T: Encodable>(_ value: T, under key: String, capacity: Int) throws -> Data {
    let middle = middle(key)
    return try StoreCoding.makeEncoder().encodeFramed(
      value, capacity: capacity, headerSize: prefix.count + 16 + middle.count,
      header: { body in prefix + Array(HybridLogicalClock.text(checksum(body)).utf8) + middle }, trailer: suffix)
  }

  enum Failure: Error, Equatable {
    /// Not (yet) a whole change file: truncated, empty, or written by something else.
    case incomplete
    /// Whole, but its bytes do not match its checksum.
    case checksumMismatch
    /// The checksum matches but the change cannot be read: a bug, or a format no program wrote.
    case unreadable(String)
    /// Whole, but written in a newer change-file format than the reader reads (``ChangeFormat``).
    case newerFormat(Int)
  }

  /// The change's bytes, once the envelope and the checksum are checked.
  static func body(_ data: Data, under key: String = "change") -> Result<Data, Failure> {
    let bytes = [UInt8](data)
    let separator = middle(key)
    let headerLength = prefix.count + 16 + separator.count
    guard bytes.count > headerLength + suffix.count, Array(bytes[0..<prefix.count]) == prefix,
      Array(bytes[(prefix.count + 16)..<headerLength]) == separator, Array(bytes.suffix(suffix.count)) == suffix,
      let expected = HybridLogicalClock.parse(String(decoding: bytes[prefix.count..<(prefix.count + 16)], as: UTF8.self))
    else { return .failure(.incomplete) }
    let body = Data(bytes[headerLength..<(bytes.count - suffix.count)])
    guard checksum(body) == expected else { return .failure(.checksumMismatch) }
    return .success(body)
  }

  /// A change file, of a format from ``ChangeFormat/oldest`` to `reads`.
  static func decode(_ data: Data, reads: Int = ChangeFormat.oldest) -> Result<ChangeFile, Failure> {
    decode(ChangeFile.self, data, under: "change", version: \.formatVersion, reads: reads)
  }

  static func decodeSnapshot(_ data: Data, reads: Int = ChangeFormat.oldest) -> Result<ChangeSnapshot, Failure> {
    decode(ChangeSnapshot.self, data, under: "snapshot", version: \.formatVersion, reads: reads)
  }

  /// The header alone, read when the body does not decode or is too new: a newer format may
  /// change everything but its `formatVersion`.
  private struct Header: Decodable { var formatVersion: Int }

  private static func decode<T: Decodable>(
    _ type: T.Type, _ data: Data, under key: String, version: KeyPath<T, Int>, reads: Int
  ) -> Result<T, Failure> {
    let body: Data
    switch self.body(data, under: key) {
    case .success(let bytes): body = bytes
    case .failure(let failure): return .failure(failure)
    }
    // One parse in the usual case; the header is read on its own only when that fails.
    do {
      let value = try StoreCoding.makeDecoder().decode(T.self, from: body)
      let format = value[keyPath: version]
      guard format > reads || format < ChangeFormat.oldest else { return .success(value) }
      return .failure(format > reads ? .newerFormat(format) : .unreadable("written in format \(format), which no program writes into changes/"))
    } catch {
      if let format = try? StoreCoding.makeDecoder().decode(Header.self, from: body).formatVersion, format > reads {
        return .failure(.newerFormat(format))
      }
      return .failure(.unreadable(StoreCoding.reason(error)))
    }
  }

  /// A file's or record's checksum (``FNV1a``).
  static func checksum(_ bytes: some Collection<UInt8>) -> UInt64 { FNV1a.hash(bytes) }
}
