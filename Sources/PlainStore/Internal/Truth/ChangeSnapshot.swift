import Foundation

/// `changes/<device>/snapshot-<number>.json`: one device's merged view at a compaction, created
/// once like a change file.
///
/// It holds the registers of the merge — per object its first write, its tombstone, and per
/// field group the winning value with its stamp — so folding a snapshot is the same as folding
/// the change files it covers, and a fold of snapshots and change files together is still a
/// pure function of the set of files. It is also the device's acknowledgement: `covers` says
/// which changes its view holds, and a device deletes its own change files only once every
/// active device's snapshot covers them. An acknowledgement is only ever made by a snapshot,
/// so whatever a device has acknowledged stays in a file of its own until a newer snapshot
/// replaces it: a cache rebuilt in the meantime never misses a change whose file was deleted.
struct ChangeSnapshot: Codable, Equatable, Sendable {
  var formatVersion = ChangeFile.formatVersion
  var device: DeviceID
  /// The device's own counter of snapshots: 1, 2, 3…; the newest replaces the older ones.
  var number: Int
  /// When it was taken, on the device's clock: its last sign of life for the others.
  var hlc: UInt64
  var schemaVersion: Int
  /// Per device, the highest sequence such that this view holds every change up to it.
  var covers: [DeviceID: Int]
  var objects: [Object]

  struct Object: Codable, Equatable, Sendable {
    var entity: String
    var id: UUID
    var created: ChangeStamp
    var deleted: ChangeStamp?
    /// Per field group, the winning write; nil for a tombstone, whose fields no longer matter.
    var groups: [String: Register]?
    /// Every write of the groups that hold a unique key, a tombstone's too: which objects met
    /// on a key depends on them. Absent from snapshots written before it was kept.
    var keyWrites: [String: [Register]]?
  }

  struct Register: Codable, Equatable, Sendable {
    var stamp: ChangeStamp
    var fields: [String: RawJSON]
    /// The members an older write than `stamp` set (an insert after it left them nil), with
    /// that write's stamp; absent when one write set them all. A reader that predates it takes
    /// the whole group as written at `stamp`.
    var earlier: [String: ChangeStamp]?
  }

  var fileName: String { ChangeFileName.snapshotName(number: number) }
  /// Tells apart two snapshots of one device and number (two copies of a store that both
  /// compacted): its clock, device and number.
  var stamp: ChangeStamp { ChangeStamp(hlc: hlc, device: device, sequence: number) }

  enum CodingKeys: String, CodingKey { case formatVersion, device, number, hlc, schemaVersion, covers, objects }

  init(device: DeviceID, number: Int, hlc: UInt64, schemaVersion: Int, covers: [DeviceID: Int], objects: [Object]) {
    self.device = device
    self.number = number
    self.hlc = hlc
    self.schemaVersion = schemaVersion
    self.covers = covers
    self.objects = objects
  }

  init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    formatVersion = try container.decode(Int.self, forKey: .formatVersion)
    device = try container.decodeDeviceID(forKey: .device)
    number = try container.decode(Int.self, forKey: .number)
    hlc = try container.decodeClock(forKey: .hlc)
    schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
    covers = [:]
    for (text, sequence) in try container.decode([String: Int].self, forKey: .covers) {
      guard sequence >= 0 else {
        throw DecodingError.dataCorruptedError(forKey: .covers, in: container, debugDescription: "'\(text)': \(sequence) is not a device's sequence.")
      }
      covers[try container.deviceID(text, forKey: .covers)] = sequence
    }
    objects = try container.decode([Object].self, forKey: .objects)
  }

  func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(formatVersion, forKey: .formatVersion)
    try container.encode(device.text, forKey: .device)
    try container.encode(number, forKey: .number)
    try container.encode(HybridLogicalClock.text(hlc), forKey: .hlc)
    try container.encode(schemaVersion, forKey: .schemaVersion)
    try container.encode(Dictionary(uniqueKeysWithValues: covers.map { ($0.key.text, $0.value) }), forKey: .covers)
    try container.encode(objects, forKey: .objects)
  }
}

extension MergedState {
  /// Folds a snapshot in: the same join as its change files, so it changes nothing it covers.
  /// The values of an older schema version go through the schema's migrations register by
  /// register, as those of its change files would; one of a newer version is left out.
  mutating func apply(_ snapshot: ChangeSnapshot) {
    guard snapshot.schemaVersion <= schema.version else { return }
    for (device, through) in snapshot.covers where through > 0 {
      applied[device, default: IndexSet()].insert(integersIn: 1...through)
    }
    for object in snapshot.objects {
      let key = ObjectKey(entity: object.entity, id: object.id)
      var registers = objects[key] ?? Registers(created: object.created)
      if object.created < registers.created { registers.created = object.created }
      if let deleted = object.deleted { registers.delete(at: deleted) }
      let entity = schema.entities[object.entity]
      // A snapshot of before the key writes were kept: its winning writes are all it knows.
      for (group, writes) in object.keyWrites ?? (object.groups ?? [:]).mapValues({ [$0] }) {
        for write in writes {
          guard let (group, register) = migrated(group, write, object, from: snapshot.schemaVersion) else { continue }
          if entity?.keyGroups.contains(group) == true { registers.recordKeyWrite(register, group: group) }
        }
      }
      for (group, write) in object.groups ?? [:] {
        guard let (group, register) = migrated(group, write, object, from: snapshot.schemaVersion) else { continue }
        registers.write(register, group: group)
      }
      objects[key] = registers
    }
  }

  /// A snapshot's write as this schema version reads it; nil when a migration leaves nothing.
  private mutating func migrated(
    _ group: String, _ write: ChangeSnapshot.Register, _ object: ChangeSnapshot.Object, from version: Int
  ) -> (String, Register)? {
    var (group, fields) = (group, write.fields)
    if version < schema.version {
      var groups: [String]? = [group]
      schema.migrations.migrate(object.entity, id: object.id, fields: &fields, groups: &groups, from: version, failures: &migrationFailures)
      guard !fields.isEmpty else { return nil }
      group = groups?.first ?? group
    }
    return (group, Register(stamp: write.stamp, fields: fields, earlier: (write.earlier ?? [:]).filter { fields[$0.key] != nil }))
  }

  /// This view as a snapshot: objects by entity and id, so equal views give equal bytes.
  func snapshot(device: DeviceID, number: Int, hlc: UInt64, schemaVersion: Int) -> ChangeSnapshot {
    let ordered = objects.map { (key: $0.key, order: uuidOrder($0.key.id), registers: $0.value) }
      .sorted { $0.key.entity != $1.key.entity ? $0.key.entity < $1.key.entity : $0.order < $1.order }
    let objects = ordered.map { item in
      ChangeSnapshot.Object(
        entity: item.key.entity, id: item.key.id, created: item.registers.created, deleted: item.registers.deleted,
        groups: item.registers.deleted != nil
          ? nil
          : item.registers.groups.mapValues {
            ChangeSnapshot.Register(stamp: $0.stamp, fields: $0.fields, earlier: $0.earlier.isEmpty ? nil : $0.earlier)
          },
        keyWrites: item.registers.keyWrites.isEmpty
          ? nil : item.registers.keyWrites.mapValues { $0.map { ChangeSnapshot.Register(stamp: $0.stamp, fields: $0.fields) } })
    }
    return ChangeSnapshot(device: device, number: number, hlc: hlc, schemaVersion: schemaVersion, covers: coverage(), objects: objects)
  }

  /// Per device, the highest sequence such that every change up to it is folded in.
  func coverage() -> [DeviceID: Int] {
    var covers: [DeviceID: Int] = [:]
    for (device, sequences) in applied {
      guard let first = sequences.rangeView.first, first.lowerBound == 1 else { continue }
      covers[device] = first.upperBound - 1
    }
    return covers
  }
}
