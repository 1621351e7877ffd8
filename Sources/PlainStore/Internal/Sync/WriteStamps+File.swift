import Foundation

/// ``WriteStamps`` as bytes: the cache's file of them (`local/stamps`, which the manifest names
/// with its checksum) and a merge of arrivals' log record of the stamps it set. Binary, as
/// `plainstore-stamps 1 <sequence>\n` then tables and objects in one order (entities and ids
/// sorted, LEB128 numbers): the same stamps make the same bytes. About 20 bytes an object —
/// its id is 16 of them; the stamps are indices into a table, most objects sharing their
/// insert's.
///
///     devices (32 hex digits each), names (entities, groups, members), stamps (device, hlc,
///     sequence), objects (entity, id, stamp, groups: name, stamp, earlier: name, stamp),
///     deleted (entity, id)
extension WriteStamps {
  static let fileVersion = 1

  /// The bytes of the stamps as of local transaction `sequence`.
  func fileBytes(sequence: Int) -> Data {
    var devices: Set<String> = []
    var names: Set<String> = []
    var stamps: Set<ChangeStamp> = []
    for (key, object) in objects {
      names.insert(key.entity)
      stamps.insert(object.stamp)
      for (group, written) in object.groups {
        names.insert(group)
        stamps.insert(written.stamp)
        for (member, stamp) in written.earlier {
          names.insert(member)
          stamps.insert(stamp)
        }
      }
    }
    for key in deleted { names.insert(key.entity) }
    for stamp in stamps { devices.insert(stamp.device.text) }
    let deviceList = devices.sorted()
    let nameList = names.sorted()
    let stampList = stamps.sorted()
    let deviceIndex = Dictionary(uniqueKeysWithValues: deviceList.enumerated().map { ($1, $0) })
    let nameIndex = Dictionary(uniqueKeysWithValues: nameList.enumerated().map { ($1, $0) })
    let stampIndex = Dictionary(uniqueKeysWithValues: stampList.enumerated().map { ($1, $0) })

    var out = Array("plainstore-stamps \(Self.fileVersion) \(sequence)\n".utf8)
    out.reserveCapacity(out.count + 64 + objects.count * 22)
    out.appendNumber(deviceList.count)
    for device in deviceList { out.append(contentsOf: device.utf8) }
    out.appendNumber(nameList.count)
    for name in nameList {
      out.appendNumber(name.utf8.count)
      out.append(contentsOf: name.utf8)
    }
    out.appendNumber(stampList.count)
    for stamp in stampList {
      out.appendNumber(deviceIndex[stamp.device.text]!)
      withUnsafeBytes(of: stamp.hlc.littleEndian) { out.append(contentsOf: $0) }
      out.appendNumber(stamp.sequence)
    }
    func sorted(_ keys: some Collection<ObjectKey>) -> [ObjectKey] {
      keys.sorted { $0.entity != $1.entity ? $0.entity < $1.entity : uuidPrecedes($0.id, $1.id) }
    }
    out.appendNumber(objects.count)
    for key in sorted(objects.keys) {
      let object = objects[key]!
      out.appendKey(key, nameIndex)
      out.appendNumber(stampIndex[object.stamp]!)
      out.appendNumber(object.groups.count)
      for group in object.groups.keys.sorted() {
        let written = object.groups[group]!
        out.appendNumber(nameIndex[group]!)
        out.appendNumber(stampIndex[written.stamp]!)
        out.appendNumber(written.earlier.count)
        for member in written.earlier.keys.sorted() {
          out.appendNumber(nameIndex[member]!)
          out.appendNumber(stampIndex[written.earlier[member]!]!)
        }
      }
    }
    out.appendNumber(deleted.count)
    for key in sorted(deleted) { out.appendKey(key, nameIndex) }
    return Data(out)
  }

  /// The stamps `bytes` hold as of local transaction `sequence`; nil for anything else: other
  /// bytes, another version, another sequence. (The manifest's checksum of them says whether
  /// they are whole; this only refuses to read past their end.)
  init?(fileBytes bytes: Data, sequence: Int) {
    guard let stamps = [UInt8](bytes).withUnsafeBufferPointer({ Self.read(_StampsReader(bytes: $0), sequence: sequence) }) else {
      return nil
    }
    self = stamps
  }

  private static func read(_ reader: _StampsReader, sequence: Int) -> WriteStamps? {
    var reader = reader
    guard reader.line() == "plainstore-stamps \(fileVersion) \(sequence)" else { return nil }
    var devices: [DeviceID] = []
    guard let deviceCount = reader.count(ofAtLeast: 32) else { return nil }
    for _ in 0..<deviceCount {
      guard let device = reader.bytes(32).flatMap({ DeviceID(String(decoding: $0, as: UTF8.self)) }) else { return nil }
      devices.append(device)
    }
    var names: [String] = []
    guard let nameCount = reader.count(ofAtLeast: 1) else { return nil }
    for _ in 0..<nameCount {
      guard let length = reader.number(), let name = reader.bytes(length) else { return nil }
      names.append(String(decoding: name, as: UTF8.self))
    }
    var stamps: [ChangeStamp] = []
    guard let stampCount = reader.count(ofAtLeast: 10) else { return nil }
    for _ in 0..<stampCount {
      guard let device = reader.index(devices), let hlc = reader.bytes(8), let number = reader.number() else { return nil }
      stamps.append(ChangeStamp(hlc: hlc.reversed().reduce(0) { $0 << 8 | UInt64($1) }, device: device, sequence: number))
    }
    guard let objectCount = reader.count(ofAtLeast: 19) else { return nil }
    var objects: [ObjectKey: ObjectStamps] = [:]
    objects.reserveCapacity(objectCount)
    for _ in 0..<objectCount {
      guard let key = reader.key(names), let stamp = reader.index(stamps), let groupCount = reader.count(ofAtLeast: 3) else { return nil }
      var object = ObjectStamps(stamp: stamp)
      for _ in 0..<groupCount {
        guard let group = reader.index(names), let written = reader.index(stamps), let earlierCount = reader.count(ofAtLeast: 2) else { return nil }
        var stamp = ObjectStamps.GroupStamp(stamp: written)
        for _ in 0..<earlierCount {
          guard let member = reader.index(names), let earlier = reader.index(stamps) else { return nil }
          stamp.earlier[member] = earlier
        }
        object.groups[group] = stamp
      }
      objects[key] = object
    }
    var deleted: Set<ObjectKey> = []
    guard let deletedCount = reader.count(ofAtLeast: 17) else { return nil }
    for _ in 0..<deletedCount {
      guard let key = reader.key(names) else { return nil }
      deleted.insert(key)
    }
    return reader.isAtEnd ? WriteStamps(objects: objects, deleted: deleted) : nil
  }
}

extension [UInt8] {
  /// LEB128: seven bits a byte, the high bit saying that more follow.
  fileprivate mutating func appendNumber(_ number: Int) {
    var rest = UInt64(number)
    while rest >= 0x80 {
      append(UInt8(rest & 0x7f) | 0x80)
      rest >>= 7
    }
    append(UInt8(rest))
  }

  fileprivate mutating func appendKey(_ key: ObjectKey, _ names: [String: Int]) {
    appendNumber(names[key.entity]!)
    Swift.withUnsafeBytes(of: key.id.uuid) { append(contentsOf: $0) }
  }
}

/// Reads the bytes `WriteStamps.fileBytes` writes, never past their end: each read is nil there.
private struct _StampsReader {
  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0

  var isAtEnd: Bool { position == bytes.count }

  mutating func bytes(_ count: Int) -> UnsafeBufferPointer<UInt8>? {
    guard count >= 0, count <= bytes.count - position else { return nil }
    defer { position += count }
    return UnsafeBufferPointer(rebasing: bytes[position..<(position + count)])
  }

  mutating func line() -> String? {
    guard let end = bytes[position...].firstIndex(of: UInt8(ascii: "\n")), let text = self.bytes(end - position) else { return nil }
    position += 1
    return String(decoding: text, as: UTF8.self)
  }

  mutating func number() -> Int? {
    var value: UInt64 = 0
    for shift in stride(from: 0, to: 63, by: 7) {
      guard position < bytes.count else { return nil }
      let byte = bytes[position]
      position += 1
      value |= UInt64(byte & 0x7f) << UInt64(shift)
      if byte < 0x80 { return value <= UInt64(Int.max) ? Int(value) : nil }
    }
    return nil
  }

  /// A count of items of at least `size` bytes each: nil when the bytes left cannot hold them
  /// (a damaged count must not reserve, or loop, for billions).
  mutating func count(ofAtLeast size: Int) -> Int? {
    guard let count = number(), count <= (bytes.count - position) / size else { return nil }
    return count
  }

  mutating func index<T>(_ table: [T]) -> T? {
    guard let index = number(), index < table.count else { return nil }
    return table[index]
  }

  mutating func key(_ names: [String]) -> ObjectKey? {
    guard let entity = index(names), let id = bytes(16) else { return nil }
    var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: UnsafeRawBufferPointer(id)) }
    return ObjectKey(entity: entity, id: UUID(uuid: uuid))
  }
}

extension StoreCoordinator {
  /// Writes the stamps file of a compaction, before its manifest names it. Not flushed, and a
  /// hint: one a power loss took or tore, or not written, fails the manifest's checksum and is
  /// not known (the merges after it fold every file once, as before it was kept).
  func writeStamps(_ bytes: Data, _ files: StoreFiles) {
    try? FileSystem.writeAtomically(bytes, to: files.stampsURL, displayPath: files.display(files.cachePrefix + "stamps"), durable: false)
  }

  /// Reads the stamps the manifest names, when this state knows none, and brings them up to
  /// its sequence by the log entries after the manifest (as the state took them in): once a
  /// manifest, by the first merge of arrivals that touches an object the cache shows or the
  /// first compaction, so an open reads nothing more (20 bytes an object: 7 ms at 20k). Bytes
  /// that are not the manifest's (damaged, another compaction's, or a file the manifest does
  /// not name) or a log that does not reach the state leave them not known.
  func readStamps(_ state: inout StoreState, _ files: StoreFiles) {
    guard state.stamps == nil, state.stampsRead != state.manifest.sequence, let named = state.manifest.stamps else { return }
    state.stampsRead = state.manifest.sequence
    state.stamps = loadStamps(named, of: state.manifest.sequence, through: state.sequence, files)
  }

  /// The stamps file `named` of the manifest of sequence `from`, brought up to sequence
  /// `through` by the log entries after it; nil when its bytes are not the manifest's or the
  /// log does not reach `through`. Touches no state: a compaction after a commit reads it on
  /// its own thread for a process that never did.
  func loadStamps(_ named: SegmentEntry, of from: Int, through to: Int, _ files: StoreFiles) -> WriteStamps? {
    guard let bytes = try? FileSystem.read(files.stampsURL, displayPath: files.display(files.cachePrefix + "stamps")),
      bytes.count == named.size, StoreFiles.checksum(bytes) == named.checksum, var stamps = WriteStamps(fileBytes: bytes, sequence: from)
    else { return nil }
    if to > from {
      var cursor: LocalLog.Cursor?
      guard let entries = try? readLog(from: from + 1, cursor: &cursor, values: .skipped, files), entries.count >= to - from else { return nil }
      for entry in entries.prefix(to - from) {
        guard entry.retired == nil else { return nil }  // a merge that folded every file: its stamps are its process's
        stamps.note(entry)
      }
    }
    return stamps
  }
}
