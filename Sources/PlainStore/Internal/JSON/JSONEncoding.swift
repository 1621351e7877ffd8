import Foundation

/// The `Encoder` that `StoreJSONEncoder` hands to `encode(to:)`: it writes JSON bytes as values
/// arrive, one instance for the whole document, and sorts an object's members when the value
/// that holds them is done (only if they came unsorted, which synthesized Codable usually does).
///
/// Each value being encoded is a `Level`; its object members or array elements are `Entry`s.
/// Containers from `nestedContainer`/`superEncoder` may be written after their parent moves on,
/// so they get an encoder of their own whose bytes the parent splices in when it finishes.
final class JSONEncoding: Encoder {
  let writer: JSONWriter
  let userInfo: [CodingUserInfoKey: Any]
  /// The coding path of the value being encoded.
  var path: [any CodingKey]
  @exclusivity(unchecked) var levels: [Level] = []
  @exclusivity(unchecked) var entries: [Entry] = []

  var codingPath: [any CodingKey] { path }

  struct Level {
    enum Kind { case empty, object, array, single }
    var kind = Kind.empty
    /// Where the value's bytes start (its `{` or `[`).
    var start: Int
    /// Where its entries start in `entries`.
    var firstEntry: Int
    var count = 0
    /// Members must be reordered (or deduplicated, or children spliced in) when it finishes.
    var rebuild = false
    /// A key was escaped, so keys are compared by their text rather than their bytes.
    var escapedKeys = false
  }

  /// An object member (key between `keyStart` and `keyEnd`, without quotes; its value ends at
  /// `valueEnd`) or, in an array, only the child encoder spliced in at `valueEnd`.
  struct Entry {
    var keyStart: Int
    var keyEnd: Int
    var valueEnd: Int
    var child: JSONEncoding?
  }

  init(userInfo: [CodingUserInfoKey: Any], path: [any CodingKey] = [], capacity: Int = 256) {
    self.writer = JSONWriter(capacity: capacity)
    self.userInfo = userInfo
    self.path = path
    levels.reserveCapacity(8)
    entries.reserveCapacity(32)
  }

  /// Empties the encoder for the next document, keeping its buffers.
  func reset() {
    writer.count = 0
    levels.removeAll(keepingCapacity: true)
    entries.removeAll(keepingCapacity: true)
    path = []
  }

  // MARK: Encoder

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let level = levels.count - 1
    switch levels[level].kind {
    case .empty:
      levels[level].kind = .object
      writer.append(UInt8(ascii: "{"))
    case .object:
      break  // a subclass and its superclass share the object
    case .array, .single:
      preconditionFailure("Attempt to push a keyed container where \(levels[level].kind) was already encoded.")
    }
    return KeyedEncodingContainer(JSONKeyedEncodingContainer<Key>(encoder: self, level: level, depth: path.count))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let level = levels.count - 1
    switch levels[level].kind {
    case .empty:
      levels[level].kind = .array
      writer.append(UInt8(ascii: "["))
    case .array:
      break
    case .object, .single:
      preconditionFailure("Attempt to push an unkeyed container where \(levels[level].kind) was already encoded.")
    }
    return JSONUnkeyedEncodingContainer(encoder: self, level: level, depth: path.count)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    JSONSingleValueEncodingContainer(encoder: self, level: levels.count - 1, depth: path.count)
  }

  // MARK: Levels

  func begin() {
    levels.append(Level(start: writer.count, firstEntry: entries.count))
  }

  /// Closes the innermost value: sorts an object's members, splices children in, writes
  /// `{}` for a value that encoded nothing.
  func end() {
    let level = levels.removeLast()
    defer { entries.removeSubrange(level.firstEntry...) }
    switch level.kind {
    case .empty:
      writer.append("{}")
    case .single:
      break
    case .object:
      if level.rebuild { rebuildObject(level) }
      writer.append(UInt8(ascii: "}"))
    case .array:
      if level.rebuild { rebuildArray(level) }
      writer.append(UInt8(ascii: "]"))
    }
  }

  /// Drops the innermost value after its encoding threw: its bytes are never used, and
  /// rebuilding a value that stopped halfway would read members that have no end.
  func abandon() {
    let level = levels.removeLast()
    entries.removeSubrange(level.firstEntry...)
  }

  /// This encoder's finished bytes, for a parent to splice in.
  func finish() -> JSONWriter {
    while !levels.isEmpty { end() }
    return writer
  }

  /// Writes an object member's key and `:`, before its value.
  func beginMember(_ key: String, level index: Int) {
    if levels[index].count > 0 { writer.append(UInt8(ascii: ",")) }
    let keyStart = writer.count + 1
    let escaped = writer.appendString(key)
    let keyEnd = writer.count - 1
    writer.append(UInt8(ascii: ":"))
    if escaped { levels[index].escapedKeys = true }
    if levels[index].count > 0 && !levels[index].rebuild {
      let previous = entries[entries.count - 1]
      if escaped || levels[index].escapedKeys || compareKeys(previous.keyStart, previous.keyEnd, keyStart, keyEnd) >= 0 {
        levels[index].rebuild = true
      }
    }
    levels[index].count += 1
    entries.append(Entry(keyStart: keyStart, keyEnd: keyEnd, valueEnd: 0, child: nil))
  }

  /// Starts a member of a record (`JSONRecord`), whose members come in key order, each once,
  /// and open no nested container of their own: written as they come, with no entry kept for
  /// a rebuild that cannot happen. No `endMember` follows.
  func beginRecordMember(_ key: String, level index: Int) {
    if levels[index].count > 0 { writer.append(UInt8(ascii: ",")) }
    writer.appendString(key)
    writer.append(UInt8(ascii: ":"))
    levels[index].count += 1
  }

  /// Records where the member's value ended.
  @inline(__always) func endMember() {
    entries[entries.count - 1].valueEnd = writer.count
  }

  /// Writes the `,` before an array element.
  @inline(__always) func beginElement(level index: Int) {
    if levels[index].count > 0 { writer.append(UInt8(ascii: ",")) }
    levels[index].count += 1
  }

  /// An encoder for a nested container or super encoder, spliced in at this point when the
  /// current value finishes.
  func child(level index: Int, key: any CodingKey) -> JSONEncoding {
    let child = JSONEncoding(userInfo: userInfo, path: path + [key], capacity: 64)
    child.begin()
    if levels[index].kind == .array {
      entries.append(Entry(keyStart: 0, keyEnd: 0, valueEnd: writer.count, child: child))
    } else {
      entries[entries.count - 1].child = child
      endMember()
    }
    levels[index].rebuild = true
    return child
  }

  private func compareKeys(_ aStart: Int, _ aEnd: Int, _ bStart: Int, _ bEnd: Int) -> Int {
    let aCount = aEnd - aStart
    let bCount = bEnd - bStart
    let order = memcmp(writer.base + aStart, writer.base + bStart, min(aCount, bCount))
    if order != 0 { return Int(order) }
    return aCount - bCount
  }

  /// Whether key `a` comes before `b` in an object (bytewise UTF-8, as `.sortedKeys` and
  /// `rebuildObject` order them), for writers that sort their keys before writing them.
  static func keyPrecedes(_ a: String, _ b: String) -> Bool {
    // Their bytes in place (a native string's are; a small one's are copied to the stack):
    // iterating a UTF-8 view costs ten times as much on keys sharing a long prefix.
    let inPlace = a.utf8.withContiguousStorageIfAvailable { a in
      b.utf8.withContiguousStorageIfAvailable { b in
        let order = a.isEmpty || b.isEmpty ? 0 : memcmp(a.baseAddress!, b.baseAddress!, min(a.count, b.count))
        return order != 0 ? order < 0 : a.count < b.count
      }
    }
    return (inPlace ?? nil) ?? a.utf8.lexicographicallyPrecedes(b.utf8)
  }

  /// Rewrites an object's members in key order (bytewise UTF-8, as `.sortedKeys`), keeping the
  /// last of equal keys as Foundation's dictionary does, with children spliced in.
  private func rebuildObject(_ level: Level) {
    let memberCount = entries.count - level.firstEntry
    guard level.escapedKeys || memberCount > Self.smallObject || entries[level.firstEntry...].contains(where: { $0.child != nil })
    else { return rebuildSmallObject(level, memberCount) }
    let members = Array(entries[level.firstEntry...])
    let bodyStart = level.start + 1
    let old = writer.copy(from: bodyStart)
    var keys: [[UInt8]] = []
    if level.escapedKeys {
      keys = old.withUnsafeBufferPointer { buffer in
        members.map {
          JSONDocument.unescape(UnsafeBufferPointer(rebasing: buffer[$0.keyStart - bodyStart..<$0.keyEnd - bodyStart]))
        }
      }
    }
    let order = old.withUnsafeBufferPointer { buffer -> [Int] in
      func compare(_ a: Int, _ b: Int) -> Int {
        if level.escapedKeys {
          return keys[a].lexicographicallyPrecedes(keys[b]) ? -1 : keys[a] == keys[b] ? 0 : 1
        }
        let aCount = members[a].keyEnd - members[a].keyStart
        let bCount = members[b].keyEnd - members[b].keyStart
        let order = memcmp(
          buffer.baseAddress! + (members[a].keyStart - bodyStart), buffer.baseAddress! + (members[b].keyStart - bodyStart),
          min(aCount, bCount))
        return order != 0 ? Int(order) : aCount - bCount
      }
      let sorted = members.indices.sorted { a, b in
        let order = compare(a, b)
        return order != 0 ? order < 0 : a < b
      }
      // Of equal keys, the last written wins.
      var kept: [Int] = []
      kept.reserveCapacity(sorted.count)
      for index in sorted {
        if let last = kept.last, compare(last, index) == 0 { kept.removeLast() }
        kept.append(index)
      }
      return kept
    }
    writer.count = bodyStart
    old.withUnsafeBytes { buffer in
      for (position, index) in order.enumerated() {
        if position > 0 { writer.append(UInt8(ascii: ",")) }
        let member = members[index]
        // From the key's opening quote to the value's end.
        writer.append(UnsafeRawBufferPointer(rebasing: buffer[member.keyStart - 1 - bodyStart..<member.valueEnd - bodyStart]))
        if let child = member.child {
          let bytes = child.finish()
          writer.append(UnsafeRawBufferPointer(start: bytes.base, count: bytes.count))
        }
      }
    }
  }

  /// Up to this many members, an object is rebuilt without allocating: every entity a check
  /// encodes is one, and its synthesized `encode(to:)` writes its members out of key order.
  private static let smallObject = 32

  /// ``rebuildObject(_:)`` for an object of plain keys and no children: its bytes and the order
  /// of its members in scratch space on the stack, put in order by insertion (stable, so of
  /// equal keys the last written comes last, and is the one kept).
  private func rebuildSmallObject(_ level: Level, _ memberCount: Int) {
    let bodyStart = level.start + 1
    let bodyCount = writer.count - bodyStart
    let first = level.firstEntry
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bodyCount) { old in
      let body = old.baseAddress!
      body.update(from: writer.base + bodyStart, count: bodyCount)  // bytes: nothing to initialize
      withUnsafeTemporaryAllocation(of: Int.self, capacity: memberCount) { order in
        for index in 0..<memberCount {
          var slot = index
          while slot > 0 && compareKeys(body, bodyStart, entries[first + order[slot - 1]], entries[first + index]) > 0 {
            order[slot] = order[slot - 1]
            slot -= 1
          }
          order[slot] = index
        }
        writer.count = bodyStart
        var written = 0
        for position in 0..<memberCount {
          let member = entries[first + order[position]]
          if position + 1 < memberCount && compareKeys(body, bodyStart, member, entries[first + order[position + 1]]) == 0 { continue }
          if written > 0 { writer.append(UInt8(ascii: ",")) }
          // From the key's opening quote to the value's end.
          writer.append(UnsafeRawBufferPointer(start: body + (member.keyStart - 1 - bodyStart), count: member.valueEnd - member.keyStart + 1))
          written += 1
        }
      }
    }
  }

  /// Compares two members' keys bytewise, in a copy of the object's body that starts at `bodyStart`.
  private func compareKeys(_ body: UnsafeMutablePointer<UInt8>, _ bodyStart: Int, _ a: Entry, _ b: Entry) -> Int {
    let aCount = a.keyEnd - a.keyStart
    let bCount = b.keyEnd - b.keyStart
    let order = memcmp(body + (a.keyStart - bodyStart), body + (b.keyStart - bodyStart), min(aCount, bCount))
    return order != 0 ? Int(order) : aCount - bCount
  }

  /// Splices the children of an array in at their places.
  private func rebuildArray(_ level: Level) {
    let children = Array(entries[level.firstEntry...])
    let old = writer.copy(from: level.start)
    writer.count = level.start
    old.withUnsafeBytes { buffer in
      var copied = 0
      for entry in children {
        let position = entry.valueEnd - level.start
        writer.append(UnsafeRawBufferPointer(rebasing: buffer[copied..<position]))
        copied = position
        if let child = entry.child {
          let bytes = child.finish()
          writer.append(UnsafeRawBufferPointer(start: bytes.base, count: bytes.count))
        }
      }
      writer.append(UnsafeRawBufferPointer(rebasing: buffer[copied...]))
    }
  }
}
