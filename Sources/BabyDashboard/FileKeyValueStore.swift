import Foundation
import PlainStore

/// A ``KeyValueStore`` in one JSON file, safe to share between processes.
///
/// The default on Linux, where `UserDefaults` writes only on `synchronize()`, rewrites its plist
/// in place, loses one process's keys when two write at once and reads a damaged plist as empty.
/// Here:
/// - the file is one JSON document with sorted keys and a format version; a value that is JSON
///   (every value this package stores) is kept as readable JSON under `values`, any other bytes
///   as base64 under `binaryValues` (format 1 kept every value as base64, and is still read);
///   format 3 adds a `checksum` of the values, so that a byte changed in place is refused as
///   damage instead of read as another amount (format 2 files, without one, are still read);
/// - every change is a read-modify-write under an exclusive `flock` on a sibling `.lock` file,
///   so two processes never lose each other's keys;
/// - the file is replaced atomically (temporary file in the same folder, fsync, rename, fsync of
///   the folder), with mode 0600;
/// - a missing file is an empty store; a damaged one is an error that names it, and is never
///   overwritten.
///
/// ```swift
/// let store = FileKeyValueStore(fileURL: AppGroup.current.keyValueFileURL(in: groupFolder))
/// ```
public struct FileKeyValueStore: KeyValueStore {
  /// The version of the file format this code writes.
  public static let formatVersion = 3

  /// The JSON file.
  public let fileURL: URL
  /// The lock file beside it: `<file>.lock`.
  public var lockURL: URL { fileURL.appendingPathExtension("lock") }
  /// How long a write waits for another process's; past it, the write fails with `StoreError`'s
  /// `locked` code and changes nothing.
  public var lockTimeout: Duration

  /// A store in the file at `fileURL`; nothing is created until the first write.
  public init(fileURL: URL, lockTimeout: Duration = .seconds(10)) {
    self.fileURL = fileURL
    self.lockTimeout = lockTimeout
  }

  /// The store in the app group's folder: `Preferences/<group>.json`.
  public init(appGroup: AppGroup, directory: URL) {
    self.init(fileURL: appGroup.keyValueFileURL(in: directory))
  }

  public func data(forKey key: String) throws -> Data? {
    // Readers do not lock: the file is only ever replaced whole, by a rename.
    try read()[key]
  }

  public func set(_ data: Data, forKey key: String) throws {
    try modify { $0[key] = data }
  }

  public func remove(forKey key: String) throws {
    try modify { $0[key] = nil }
  }

  public func allKeys() throws -> [String] {
    try read().keys.sorted()
  }

  public func allValues() throws -> [String: Data] {
    try read()
  }

  public func moveValue(fromKey oldKey: String, toKey newKey: String) throws {
    try modify { values in
      guard oldKey != newKey, let value = values.removeValue(forKey: oldKey) else { return }
      values[newKey] = value
    }
  }

  /// Applies `change` to all values as one read-modify-write under the lock.
  ///
  /// Nothing is written if `change` leaves the values as they were.
  public func modify(_ change: (inout [String: Data]) throws -> Void) throws {
    try AppGroupFile.withExclusiveLock(lockURL, timeout: lockTimeout) {
      var values = try read()
      let before = values
      try change(&values)
      guard values != before else { return }
      try AppGroupFile.write(try encode(values), to: fileURL)
    }
  }

  private struct Header: Decodable {
    var formatVersion: Int
  }

  private struct FileV1: Decodable {
    var values: [String: Data]
  }

  private func read() throws -> [String: Data] {
    guard let bytes = try AppGroupFile.read(fileURL) else { return [:] }
    let decoder = JSONDecoder()
    let header: Header
    do {
      header = try decoder.decode(Header.self, from: bytes)
    } catch {
      throw damaged("not a key-value file (\(Self.reason(error)))")
    }
    // Versions count from 1: a 0 or a negative one was never written by this package.
    guard header.formatVersion >= 1 else { throw damaged("format version \(header.formatVersion) was never written") }
    guard header.formatVersion <= Self.formatVersion else {
      throw KeyValueStoreError(
        code: .newerFormat(header.formatVersion), path: fileURL.path,
        detail: "written by a newer version (format \(header.formatVersion), this one reads up to "
          + "\(Self.formatVersion)); update this app or tool, the file was left untouched")
    }
    if header.formatVersion < 2 {
      do {
        return try decoder.decode(FileV1.self, from: bytes).values
      } catch {
        throw damaged("unreadable values (\(Self.reason(error)))")
      }
    }
    guard let file = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any] else {
      throw damaged("unreadable values (not a JSON object)")
    }
    // Every file this package writes has its values; without them it is another file.
    guard let readable = file["values"] as? [String: Any] else { throw damaged("no values (\"values\" is not an object)") }
    if file["binaryValues"] != nil, !(file["binaryValues"] is [String: Any]) {
      throw damaged("\"binaryValues\" is not an object")
    }
    // Format 3 carries a checksum of its values: a byte changed in place is damage, not a
    // different amount.
    if header.formatVersion >= 3 {
      guard let checksum = file["checksum"] as? String else { throw damaged("no checksum") }
      guard Self.checksum(readable, file["binaryValues"] as? [String: Any] ?? [:]) == checksum else {
        throw damaged("its values do not match its checksum")
      }
    }
    var values: [String: Data] = [:]
    for (key, value) in readable {
      guard let data = Self.canonicalJSON(value) else { throw damaged("unreadable value of '\(key)'") }
      values[key] = data
    }
    for (key, value) in file["binaryValues"] as? [String: Any] ?? [:] {
      guard let text = value as? String, let data = Data(base64Encoded: text) else {
        throw damaged("the binary value of '\(key)' is not base64")
      }
      values[key] = data
    }
    return values
  }

  private func encode(_ values: [String: Data]) throws -> Data {
    var readable: [String: Any] = [:]
    var binary: [String: Any] = [:]
    for (key, data) in values {
      // Kept as JSON only when it reads back to the very same bytes.
      if let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
        Self.canonicalJSON(object) == data
      {
        readable[key] = object
      } else {
        binary[key] = data.base64EncodedString()
      }
    }
    var file: [String: Any] = ["formatVersion": Self.formatVersion, "values": readable]
    if !binary.isEmpty { file["binaryValues"] = binary }
    file["checksum"] = Self.checksum(readable, binary)
    var data = try JSONSerialization.data(withJSONObject: file, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    data.append(0x0A)
    return data
  }

  /// FNV-1a (64 bits, 16 hex digits) of the values' compact, sorted-key JSON: it tells a
  /// damaged file from a whole one; it is not a signature.
  private static func checksum(_ readable: [String: Any], _ binary: [String: Any]) -> String {
    Digits.hex16(FNV1a.hash(canonicalJSON(["values": readable, "binaryValues": binary]) ?? Data()))
  }

  /// The compact, sorted-key JSON of a value: the form this package's values are written in.
  private static func canonicalJSON(_ value: Any) -> Data? {
    try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
  }

  private func damaged(_ detail: String) -> KeyValueStoreError {
    KeyValueStoreError(
      code: .damaged, path: fileURL.path,
      detail: "\(detail) — the file was left untouched; restore it, or move it away to start with "
        + "empty preferences (the last-feed amounts can be backfilled from the store)")
  }

  /// A reason a person can act on, from a decoding error (``DecodingFailure``).
  static func reason(_ error: Error) -> String {
    (error as? DecodingError).map { DecodingFailure($0).description } ?? "\(error)"
  }
}
