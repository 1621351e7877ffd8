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
      out.appendWord(stamp.hlc)
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
    guard let stamps = _ByteView.reading(bytes, { Self.read(BinaryReader($0), sequence: sequence) }) else { return nil }
    self = stamps
  }

  private static func read(_ reader: BinaryReader, sequence: Int) -> WriteStamps? {
    var reader = reader
    guard reader.line() == "plainstore-stamps \(fileVersion) \(sequence)" else { return nil }
    var devices: [DeviceID] = []
    guard let deviceCount = reader.count(ofAtLeast: 32) else { return nil }
    for _ in 0..<deviceCount {
      guard let device = reader.bytes(32).flatMap({ DeviceID($0.string(0..<32)) }) else { return nil }
      devices.append(device)
    }
    var names: [String] = []
    guard let nameCount = reader.count(ofAtLeast: 1) else { return nil }
    for _ in 0..<nameCount {
      guard let length = reader.number(), let name = reader.bytes(length) else { return nil }
      names.append(name.string(0..<name.count))
    }
    var stamps: [ChangeStamp] = []
    guard let stampCount = reader.count(ofAtLeast: 10) else { return nil }
    for _ in 0..<stampCount {
      guard let device = reader.index(devices), let hlc = reader.word(), let number = reader.number() else { return nil }
      stamps.append(ChangeStamp(hlc: hlc, device: device, sequence: number))
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
  fileprivate mutating func appendKey(_ key: ObjectKey, _ names: [String: Int]) {
    appendNumber(names[key.entity]!)
    appendUUID(key.id)
  }
}

extension BinaryReader {
  fileprivate mutating func key(_ names: [String]) -> ObjectKey? {
    guard let entity = index(names), let id = uuid() else { return nil }
    return ObjectKey(entity: entity, id: id)
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
