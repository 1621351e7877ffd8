import Foundation

/// The bytes of ``WriteStamps`` (the cache's `local/stamps`, which the manifest names with its
/// checksum, and a merge of arrivals' log record), searched in place: reading one checks its
/// layout and its tables of devices and names, and each lookup finds one object by a binary
/// search of a fixed-width index and decodes that object alone. So the first merge after an
/// open costs what the arrivals touch, not every object the cache shows (decoding them all
/// was 40 ms at 100,000 objects). The same stamps make the same bytes: tables sorted, entities
/// in name order, ids in byte order (`uuidOrder`).
///
///     plainstore-stamps 2 <sequence>\n
///     devices: count, then each as 32 hex digits
///     names (entities, groups, members, sorted): count, then each as its length and UTF-8
///     stamps: count, then each as device index (4 bytes), hlc (8), sequence (8)
///     objects: count, then each as entity name index (4), id (16), body offset (4); then the
///              bodies' length, and each body: stamp index, and its groups (name index, stamp
///              index, and the members an older write set: name index, stamp index)
///     deleted: count, then each as entity name index (4), id (16)
///
/// Counts, lengths and the indices in bodies are LEB128 (`BinaryReader`); fixed-width fields
/// least significant byte first.
struct StampsFile: Sendable {
  static let version = 2
  private static let stampWidth = 20
  private static let keyWidth = 20
  private static let indexWidth = keyWidth + 4

  private let bytes: Data
  private let devices: [DeviceID]
  private let names: [String]
  private let nameIndex: [String: Int]
  private let layout: Layout

  /// Where each part starts, and how many entries it holds.
  private struct Layout: Sendable {
    var stamps = 0, stampCount = 0
    var index = 0, objectCount = 0
    var bodies = 0, bodiesLength = 0
    var deleted = 0, deletedCount = 0
  }

  var objectCount: Int { layout.objectCount }

  /// The file of `bytes` as of local transaction `sequence`; nil for anything else: other
  /// bytes, another version, another sequence, parts that do not add up to the bytes. (The
  /// manifest's checksum says whether they are whole; an object's body is checked when read.)
  init?(_ bytes: Data, sequence: Int) {
    guard let (devices, names, layout) = _ByteView.reading(bytes, { Self.read(BinaryReader($0), sequence: sequence) }) else { return nil }
    self.bytes = bytes
    self.devices = devices
    self.names = names
    self.nameIndex = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    self.layout = layout
  }

  private static func read(_ reader: BinaryReader, sequence: Int) -> ([DeviceID], [String], Layout)? {
    var reader = reader
    guard reader.line() == "plainstore-stamps \(version) \(sequence)" else { return nil }
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
    var layout = Layout()
    guard let stampCount = reader.count(ofAtLeast: stampWidth) else { return nil }
    (layout.stamps, layout.stampCount) = (reader.position, stampCount)
    guard reader.bytes(stampCount * stampWidth) != nil, let objectCount = reader.count(ofAtLeast: indexWidth) else { return nil }
    (layout.index, layout.objectCount) = (reader.position, objectCount)
    guard reader.bytes(objectCount * indexWidth) != nil, let bodiesLength = reader.count(ofAtLeast: 1) else { return nil }
    (layout.bodies, layout.bodiesLength) = (reader.position, bodiesLength)
    guard reader.bytes(bodiesLength) != nil, let deletedCount = reader.count(ofAtLeast: keyWidth) else { return nil }
    (layout.deleted, layout.deletedCount) = (reader.position, deletedCount)
    guard reader.bytes(deletedCount * keyWidth) != nil, reader.isAtEnd else { return nil }
    return (devices, names, layout)
  }

  /// The stamps of `key`, if the file holds them (nil too for a body that does not read).
  func object(_ key: ObjectKey) -> ObjectStamps? {
    _ByteView.reading(bytes) { view in
      guard let slot = search(view, key, at: layout.index, count: layout.objectCount, width: Self.indexWidth) else { return nil }
      var entry = BinaryReader(view, at: layout.index + slot * Self.indexWidth + Self.keyWidth)
      guard let offset = entry.word32(), offset < layout.bodiesLength else { return nil }
      var body = BinaryReader(view.extracting(layout.bodies..<(layout.bodies + layout.bodiesLength)), at: offset)
      return self.body(&body, view)
    }
  }

  /// Whether the file knows `key` deleted.
  func isDeleted(_ key: ObjectKey) -> Bool {
    _ByteView.reading(bytes) { view in search(view, key, at: layout.deleted, count: layout.deletedCount, width: Self.keyWidth) != nil }
  }

  /// Whether the file holds stamps of `key`.
  func contains(_ key: ObjectKey) -> Bool {
    _ByteView.reading(bytes) { view in search(view, key, at: layout.index, count: layout.objectCount, width: Self.indexWidth) != nil }
  }

  /// Every object's stamps and every delete the file holds, decoded (a compaction writing the
  /// stamps anew); nil when a body does not read.
  func all() -> (objects: [ObjectKey: ObjectStamps], deleted: Set<ObjectKey>)? {
    _ByteView.reading(bytes) { view in
      var objects: [ObjectKey: ObjectStamps] = [:]
      objects.reserveCapacity(layout.objectCount)
      var bodies = BinaryReader(view.extracting(layout.bodies..<(layout.bodies + layout.bodiesLength)))
      for slot in 0..<layout.objectCount {
        guard let key = objectKey(view, at: layout.index + slot * Self.indexWidth), let stamps = body(&bodies, view) else { return nil }
        objects[key] = stamps
      }
      guard bodies.isAtEnd else { return nil }
      var deleted: Set<ObjectKey> = []
      for slot in 0..<layout.deletedCount {
        guard let key = objectKey(view, at: layout.deleted + slot * Self.keyWidth) else { return nil }
        deleted.insert(key)
      }
      return (objects, deleted)
    }
  }

  /// The slot of `key` among `count` sorted entries of `width` bytes from `start`.
  private func search(_ view: _ByteView, _ key: ObjectKey, at start: Int, count: Int, width: Int) -> Int? {
    guard let entity = nameIndex[key.entity] else { return nil }
    let target = (entity, uuidOrder(key.id))
    var (low, high) = (0, count)
    while low < high {
      let middle = (low + high) / 2
      var reader = BinaryReader(view, at: start + middle * width)
      guard let name = reader.word32(), let id = reader.uuid() else { return nil }
      let found = (name, uuidOrder(id))
      if found == target { return middle }
      if found < target { low = middle + 1 } else { high = middle }
    }
    return nil
  }

  private func objectKey(_ view: _ByteView, at position: Int) -> ObjectKey? {
    var reader = BinaryReader(view, at: position)
    guard let name = reader.word32(), name < names.count, let id = reader.uuid() else { return nil }
    return ObjectKey(entity: names[name], id: id)
  }

  private func body(_ reader: inout BinaryReader, _ view: _ByteView) -> ObjectStamps? {
    func stamp() -> ChangeStamp? {
      guard let index = reader.number(), index < layout.stampCount else { return nil }
      var entry = BinaryReader(view, at: layout.stamps + index * Self.stampWidth)
      guard let device = entry.word32(), device < devices.count, let hlc = entry.word(), let sequence = entry.word() else { return nil }
      return ChangeStamp(hlc: hlc, device: devices[device], sequence: Int(truncatingIfNeeded: sequence))
    }
    guard let first = stamp(), let groupCount = reader.count(ofAtLeast: 3) else { return nil }
    var object = ObjectStamps(stamp: first)
    for _ in 0..<groupCount {
      guard let group = reader.index(names), let written = stamp(), let earlierCount = reader.count(ofAtLeast: 2) else { return nil }
      var stamps = ObjectStamps.GroupStamp(stamp: written)
      for _ in 0..<earlierCount {
        guard let member = reader.index(names), let earlier = stamp() else { return nil }
        stamps.earlier[member] = earlier
      }
      object.groups[group] = stamps
    }
    return object
  }
}
