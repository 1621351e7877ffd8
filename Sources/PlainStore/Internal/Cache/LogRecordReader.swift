import Foundation

/// Reads a local log record as a commit writes it straight from its parsed nodes, the value of
/// each change through its entity's `init(from:)` and the rest without Codable's containers.
///
/// Among four writers each commit reads the records of about three others, and Codable's
/// generic containers were two thirds of reading one (90k instructions a record, the feed it
/// carries 9k of them). A record this reader does not know whole — a member it does not read
/// (a merge's `retired`, `foldedThrough`…), a value of another shape, anything damaged — is nil:
/// `LogEntry`'s own `Decodable` reads it then, and says what is wrong with it. So the two agree
/// on every record this one reads, and the messages stay the Codable path's.
struct LogRecordReader {
  let schema: Schema
  let decoding: JSONDecoding
  var document: JSONDocument { decoding.document }

  /// The entry `data` holds, or nil for the Codable path to read.
  static func entry(_ data: Data, schema: Schema, userInfo: [CodingUserInfoKey: Any]) -> LogEntry? {
    // Nil for anything unread, bad syntax included: the Codable path says what is wrong.
    try? JSONDocument.reading(data, failed: { $0 }) { document in
      try LogRecordReader(schema: schema, decoding: JSONDecoding(document: document, userInfo: userInfo)).entry(at: 0)
    }
  }

  /// Thrown for a record this reader leaves to the Codable path.
  private struct NotRead: Error {}

  private func entry(at object: Int) throws -> LogEntry {
    var formatVersion: Int?
    var sequence: Int?
    var author: String?
    var timestamp: Date?
    var changes: [LogChange]?
    var folded: [ChangeStamp]?
    var origin: ChangeStamp?
    var reshapes: Bool?
    var derived: [Int]?
    try members(of: object) { key, value in
      if document.keyEquals(key, "changes") {
        changes = try array(value) { try change(at: $0) }
      } else if document.keyEquals(key, "folded") {
        folded = try array(value) { try stamp(at: $0) }
      } else if document.keyEquals(key, "origin") {
        origin = try stamp(at: value)
      } else if document.keyEquals(key, "author") {
        author = try string(value)
      } else if document.keyEquals(key, "sequence") {
        sequence = try decoding.integer(value, Int.self, .at(0), nil)
      } else if document.keyEquals(key, "formatVersion") {
        formatVersion = try decoding.integer(value, Int.self, .at(0), nil)
      } else if document.keyEquals(key, "timestamp") {
        timestamp = try decoding.date(value, .at(0), nil)
      } else if document.keyEquals(key, "derived") {
        derived = try array(value) { try decoding.integer($0, Int.self, .at(0), nil) }
      } else if document.keyEquals(key, "reshapes") {
        reshapes = try decoding.bool(value, .at(0), nil)
      } else {
        throw NotRead()
      }
    }
    // A version out of range is for `StoreFiles.decode` to name.
    guard let formatVersion, (1...StoreFiles.formatVersion).contains(formatVersion), let sequence, let author, let timestamp,
      let changes
    else { throw NotRead() }
    var entry = LogEntry(sequence: sequence, author: author, timestamp: timestamp, changes: changes)
    entry.formatVersion = formatVersion
    entry.folded = folded
    entry.origin = origin
    entry.reshapes = reshapes
    entry.derived = derived
    return entry
  }

  private func change(at object: Int) throws -> LogChange {
    var entity: String?
    var id: UUID?
    var kind: LogChange.Kind?
    var segment: String?
    var from: String?
    var groups: [String]?
    var mergedInto: UUID?
    var value: Int?
    try members(of: object) { key, node in
      if document.keyEquals(key, "value") {
        value = node
      } else if document.keyEquals(key, "entity") {
        entity = try string(node)
      } else if document.keyEquals(key, "id") {
        id = try decoding.uuid(node, .at(0), nil)
      } else if document.keyEquals(key, "kind") {
        guard let read = LogChange.Kind(rawValue: try string(node)) else { throw NotRead() }
        kind = read
      } else if document.keyEquals(key, "segment") {
        segment = try string(node)
      } else if document.keyEquals(key, "from") {
        from = try string(node)
      } else if document.keyEquals(key, "groups") {
        groups = try array(node) { try string($0) }
      } else if document.keyEquals(key, "mergedInto") {
        mergedInto = try decoding.uuid(node, .at(0), nil)
      } else {
        throw NotRead()
      }
    }
    guard let entity, let id, let kind, let segment, SegmentKey.isValid(segment), from.map(SegmentKey.isValid) != false else {
      throw NotRead()
    }
    var change = LogChange(entity: entity, id: id, kind: kind, segment: segment, from: from, value: nil)
    change.groups = groups
    change.mergedInto = mergedInto
    if kind != .delete, let value {
      guard let type = schema.entity(named: entity)?.type else { throw NotRead() }
      change.value = try Self.decode(type, at: value, decoding)
    }
    return change
  }

  private static func decode<E: Entity>(_ type: E.Type, at node: Int, _ decoding: JSONDecoding) throws -> any Entity {
    try decoding.unbox(E.self, at: node, base: .at(0), key: nil)
  }

  private func stamp(at node: Int) throws -> ChangeStamp {
    guard let stamp = ChangeStamp(try string(node)) else { throw NotRead() }
    return stamp
  }

  private func string(_ node: Int) throws -> String {
    try decoding.string(node, .at(0), nil)
  }

  /// Calls `body` with each member's key and value nodes. A record's writer leaves an absent
  /// member out: a null is left to the Codable path (absent for an optional member, an error
  /// for a required one, and for a change's value either, by its kind).
  private func members(of object: Int, _ body: (_ key: Int, _ value: Int) throws -> Void) throws {
    let isObject = try document.forEachMember(of: object) { key, value in
      guard document.nodes[value].kind != .null else { throw NotRead() }
      try body(key, value)
    }
    guard isObject else { throw NotRead() }
  }

  private func array<T>(_ node: Int, _ element: (Int) throws -> T) throws -> [T] {
    guard document.nodes[node].kind == .array else { throw NotRead() }
    var result: [T] = []
    result.reserveCapacity(Int(document.nodes[node].count))
    var child = node + 1
    for _ in 0..<document.nodes[node].count {
      result.append(try element(child))
      child = document.next(child)
    }
    return result
  }
}
