import Foundation

/// ``WriteStamps`` as the bytes ``StampsFile`` reads.
extension WriteStamps {
  /// The bytes of the stamps as of local transaction `sequence`; nil when the file they were
  /// read from does not read whole.
  func fileBytes(sequence: Int) -> Data? {
    guard let (objects, deleted) = all else { return nil }
    var devices: Set<DeviceID> = []
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
    for stamp in stamps { devices.insert(stamp.device) }
    let deviceList = devices.sorted()
    let nameList = names.sorted()
    let stampList = stamps.sorted()
    let deviceIndex = Dictionary(uniqueKeysWithValues: deviceList.enumerated().map { ($1, $0) })
    let nameIndex = Dictionary(uniqueKeysWithValues: nameList.enumerated().map { ($1, $0) })
    let stampIndex = Dictionary(uniqueKeysWithValues: stampList.enumerated().map { ($1, $0) })

    var out = Array("plainstore-stamps \(StampsFile.version) \(sequence)\n".utf8)
    out.reserveCapacity(out.count + 64 + stampList.count * 20 + objects.count * 28)
    out.appendNumber(deviceList.count)
    for device in deviceList { out.append(contentsOf: device.text.utf8) }
    out.appendNumber(nameList.count)
    for name in nameList {
      out.appendNumber(name.utf8.count)
      out.append(contentsOf: name.utf8)
    }
    out.appendNumber(stampList.count)
    for stamp in stampList {
      out.appendWord32(deviceIndex[stamp.device]!)
      out.appendWord(stamp.hlc)
      out.appendWord(UInt64(truncatingIfNeeded: stamp.sequence))
    }
    // In the order the file's binary search takes: entity name index, then id bytes — each
    // key's looked up once, not at every comparison (a third of the stamps file's time at
    // 100,000 objects, where each compaction writes it).
    func sorted(_ keys: some Collection<ObjectKey>) -> [ObjectKey] {
      keys.map { (name: nameIndex[$0.entity]!, id: uuidOrder($0.id), key: $0) }
        .sorted { $0.name != $1.name ? $0.name < $1.name : $0.id < $1.id }.map(\.key)
    }
    var bodies: [UInt8] = []
    bodies.reserveCapacity(objects.count * 4)
    out.appendNumber(objects.count)
    for key in sorted(objects.keys) {
      let object = objects[key]!
      out.appendKey(key, nameIndex)
      out.appendWord32(bodies.count)
      bodies.appendNumber(stampIndex[object.stamp]!)
      bodies.appendNumber(object.groups.count)
      for group in object.groups.keys.sorted() {
        let written = object.groups[group]!
        bodies.appendNumber(nameIndex[group]!)
        bodies.appendNumber(stampIndex[written.stamp]!)
        bodies.appendNumber(written.earlier.count)
        for member in written.earlier.keys.sorted() {
          bodies.appendNumber(nameIndex[member]!)
          bodies.appendNumber(stampIndex[written.earlier[member]!]!)
        }
      }
    }
    out.appendNumber(bodies.count)
    out.append(contentsOf: bodies)
    out.appendNumber(deleted.count)
    for key in sorted(deleted) { out.appendKey(key, nameIndex) }
    return Data(out)
  }
}

extension [UInt8] {
  fileprivate mutating func appendKey(_ key: ObjectKey, _ names: [String: Int]) {
    appendWord32(names[key.entity]!)
    appendUUID(key.id)
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
  /// first compaction, so an open reads nothing more (read and checked whole, then searched in
  /// place: the first crossing merge after an open, 9 ms at 100,000 objects). Bytes
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
