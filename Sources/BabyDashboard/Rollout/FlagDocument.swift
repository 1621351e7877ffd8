import Foundation
import PlainStore

/// The rollout flags as a small JSON document in the app group, `Rollout/flags.json`: what the
/// app fetched from its configuration server (or a person wrote by hand) and dropped there.
///
/// ```json
/// {
///   "flags" : {
///     "legacyImporter" : { "minimumAppVersion" : "2.1", "owner" : "Sungdoo: Phase B", "state" : "20%" }
///   },
///   "format" : 1
/// }
/// ```
/// `state` is `"off"`, `"on"` or a percentage (`20`, `"20"` or `"20%"`); `owner` (who to ask)
/// and `minimumAppVersion` (older apps keep the flag off) are optional. The document carries no
/// checksum, so a hand edit works; instead every field is checked, and a document with a wrong
/// one is refused naming the flag and the field. A flag this version does not know is kept
/// (a newer app's) and listed in ``unknownFlags``.
public struct FlagDocument: Sendable, Hashable {
  /// The format this code reads and writes.
  public static let formatVersion = 1

  /// One flag's entry.
  public struct Entry: Sendable, Hashable {
    public var state: FlagState
    /// Who owns the flag, or why it is set so: a note for people.
    public var owner: String?
    /// The oldest app version the flag may be on in.
    public var minimumAppVersion: AppVersion?

    public init(state: FlagState, owner: String? = nil, minimumAppVersion: AppVersion? = nil) {
      self.state = state
      self.owner = owner
      self.minimumAppVersion = minimumAppVersion
    }
  }

  /// The entries of the flags this version knows.
  public var entries: [FeatureFlags.Flag: Entry]
  /// Entries of flags this version does not know, kept as they were (canonical JSON).
  public var unknownEntries: [String: Data]

  public init(entries: [FeatureFlags.Flag: Entry] = [:], unknownEntries: [String: Data] = [:]) {
    self.entries = entries
    self.unknownEntries = unknownEntries
  }

  /// The names of the flags the document sets that this version does not know, sorted.
  public var unknownFlags: [String] { unknownEntries.keys.sorted() }

  /// The document's place in the app group: `Rollout/flags.json`.
  public static func url(in groupDirectory: URL) -> URL {
    groupDirectory.appendingPathComponent("Rollout", isDirectory: true).appendingPathComponent("flags.json", isDirectory: false)
  }

  /// The fields an entry may have.
  static let fields = ["minimumAppVersion", "owner", "state"]

  /// Reads a document.
  ///
  /// - Parameter path: names the document in errors.
  /// - Throws: ``KeyValueStoreError``: `.damaged` naming the flag and the field that is wrong,
  ///   `.newerFormat` for a document of a newer format.
  public static func decode(_ data: Data, path: String) throws -> FlagDocument {
    func damaged(_ detail: String) -> KeyValueStoreError {
      KeyValueStoreError(
        code: .damaged, path: path,
        detail: "\(detail) — the built-in flags are used until it is fixed; correct it by hand, "
          + "or set a flag with `babydash flags set NAME off|on|PERCENT`, or remove the file")
    }
    let top: [String: JSONValue]
    do {
      guard case .object(let object) = try JSONDecoder().decode(JSONValue.self, from: data) else {
        throw damaged("not a JSON object with \"format\" and \"flags\"")
      }
      top = object
    } catch let error as KeyValueStoreError {
      throw error
    } catch {
      throw damaged("not JSON (\(FileKeyValueStore.reason(error)))")
    }
    guard case .integer(let format) = top["format"] else {
      throw damaged("no \"format\" number (this version writes \(formatVersion))")
    }
    guard format <= formatVersion else {
      throw KeyValueStoreError(
        code: .newerFormat(format), path: path,
        detail: "format \(format) is newer than the \(formatVersion) this version reads — update the app (or babydash); the built-in flags are used meanwhile")
    }
    guard format >= 1 else { throw damaged("format \(format) does not exist; the first is 1") }
    guard case .object(let flags) = top["flags"] else { throw damaged("no \"flags\" object") }
    var document = FlagDocument()
    for name in flags.keys.sorted() {
      guard case .object(let fields) = flags[name] else {
        throw damaged("flag '\(name)': not an object of \(Self.fields.joined(separator: ", "))")
      }
      guard let flag = FeatureFlags.Flag(rawValue: name) else {
        document.unknownEntries[name] = try JSONValue.object(fields).encoded()
        continue
      }
      if let unknown = fields.keys.sorted().first(where: { !Self.fields.contains($0) }) {
        throw damaged("flag '\(name)': unknown field '\(unknown)' (the fields are \(Self.fields.joined(separator: ", ")))")
      }
      let state: FlagState?
      switch fields["state"] {
      case .string(let text): state = FlagState(text: text)
      case .integer(let number): state = FlagState(percent: number)
      case nil: throw damaged("flag '\(name)': no \"state\" (\(FlagState.spelling))")
      default: state = nil
      }
      guard let state else {
        throw damaged("flag '\(name)': state \(fields["state"]!.text) is not \(FlagState.spelling)")
      }
      var entry = Entry(state: state)
      if let owner = fields["owner"] {
        guard case .string(let text) = owner else { throw damaged("flag '\(name)': owner \(owner.text) is not text") }
        entry.owner = text
      }
      if let minimum = fields["minimumAppVersion"] {
        guard case .string(let text) = minimum, let version = AppVersion(text) else {
          throw damaged("flag '\(name)': minimumAppVersion \(minimum.text) is not a version such as \"2.1\" or \"2.1.3\"")
        }
        entry.minimumAppVersion = version
      }
      document.entries[flag] = entry
    }
    return document
  }

  /// The document at `url`, or `nil` when there is none.
  ///
  /// - Throws: as ``decode(_:path:)``, and ``KeyValueStoreError`` when the file cannot be read.
  public static func load(from url: URL) throws -> FlagDocument? {
    guard let data = try AppGroupFile.read(url) else { return nil }
    return try decode(data, path: url.path)
  }

  /// The document as JSON: sorted keys, pretty-printed for hand edits.
  public func encoded() throws -> Data {
    var flags: [String: JSONValue] = [:]
    for (name, data) in unknownEntries {
      flags[name] = try JSONDecoder().decode(JSONValue.self, from: data)
    }
    for (flag, entry) in entries {
      var fields: [String: JSONValue] = ["state": .string(entry.state.description)]
      if let owner = entry.owner { fields["owner"] = .string(owner) }
      if let minimum = entry.minimumAppVersion { fields["minimumAppVersion"] = .string(minimum.description) }
      flags[flag.rawValue] = .object(fields)
    }
    var data = try JSONValue.object(["format": .integer(Self.formatVersion), "flags": .object(flags)]).encoded(pretty: true)
    data.append(0x0A)
    return data
  }

  /// Changes the document at `url` as one read-modify-write, under the lock beside it, and
  /// replaces it atomically (a crash leaves the old document or the new one). A missing
  /// document starts empty; a damaged one is refused and left as it is.
  ///
  /// - Throws: as ``load(from:)``, and ``KeyValueStoreError`` when it cannot be written.
  @discardableResult
  public static func modify(at url: URL, _ change: (inout FlagDocument) throws -> Void) throws -> FlagDocument {
    try AppGroupFile.withExclusiveLock(url.appendingPathExtension("lock")) {
      var document = try load(from: url) ?? FlagDocument()
      try change(&document)
      try AppGroupFile.write(try document.encoded(), to: url)
      return document
    }
  }
}

/// Any JSON value, read without Foundation's bridging (which cannot tell `true` from `1` on
/// Linux), so that a flag's fields are checked by their JSON type.
enum JSONValue: Codable, Hashable, Sendable {
  case null
  case bool(Bool)
  case integer(Int)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .integer(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }

  /// The value as JSON with sorted keys.
  func encoded(pretty: Bool = false) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }

  /// The value as it reads in the document, for messages.
  var text: String {
    (try? encoded()).map { String(decoding: $0, as: UTF8.self) } ?? "?"
  }
}
