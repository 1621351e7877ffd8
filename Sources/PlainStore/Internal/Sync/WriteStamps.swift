import Foundation

/// Who last wrote each field group of an object the cache shows, exactly as the fold keeps it
/// (`MergedState.Register`): what lets a merge of arrivals alone seed an object with its real
/// stamps, so that the last writer of each group wins for arrivals that are not newer than the
/// cache — the same field edited on two phones before either saw the other's, a late phone's
/// hour of changes — as it does in the whole fold.
///
/// Compact: one stamp for the object (its groups' most common one: the insert's, usually), and
/// an override only for a group written since, one some of whose members an older write set,
/// or one written whole to nil (which the object's JSON leaves out, and which still beats an
/// older write of the group).
struct ObjectStamps: Equatable, Sendable {
  struct GroupStamp: Equatable, Sendable {
    var stamp: ChangeStamp
    /// Members an older write set, with its stamp (see `MergedState.Register.earlier`).
    var earlier: [String: ChangeStamp] = [:]
  }

  /// Every group's that `groups` does not name.
  var stamp: ChangeStamp
  var groups: [String: GroupStamp] = [:]

  init(stamp: ChangeStamp) { self.stamp = stamp }

  /// The stamps of a fold's registers for an object.
  init(_ registers: MergedState.Registers) {
    var counts: [ChangeStamp: Int] = [:]
    for register in registers.groups.values { counts[register.stamp, default: 0] += 1 }
    stamp = counts.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key ?? registers.created
    for (group, register) in registers.groups
    where register.stamp != stamp || !register.earlier.isEmpty || register.fields.values.allSatisfy({ $0 == .null }) {
      groups[group] = GroupStamp(stamp: register.stamp, earlier: register.earlier)
    }
  }

  func group(_ name: String) -> GroupStamp { groups[name] ?? GroupStamp(stamp: stamp) }

  /// The newest write of any group.
  var newest: ChangeStamp { groups.values.reduce(stamp) { max($0, $1.stamp) } }

  /// The oldest write of any group or member.
  var oldest: ChangeStamp {
    groups.values.reduce(stamp) { oldest, group in group.earlier.values.reduce(min(oldest, group.stamp), min) }
  }

  /// A write of `names` at `stamp`, each group set whole.
  mutating func write(_ names: [String], at stamp: ChangeStamp) {
    for name in names { groups[name] = GroupStamp(stamp: stamp) }
  }
}

/// The cache's ``ObjectStamps``, per object it shows, and the objects it knows deleted (a
/// delete of their own, which wins over every write, before or after it — not a delete rule's,
/// which a later write of the reference may undo). Known after a merge that folded every file
/// (from its registers), kept by the log's entries after it, whichever process of the device
/// wrote them (`note`), and kept with the cache: each compaction writes them in a file the
/// manifest names (`StampsFile`), which the first merge after an open reads — searched in
/// place, object by object, under what the log's entries since changed — and brings up to date
/// by the log. An object whose stamps are not known (a change a delete rule or a merge derived,
/// a record of a program before this) is merged by the whole fold.
struct WriteStamps: Sendable {
  /// The file the stamps were read from, if they were.
  private var file: StampsFile?
  /// What is known since the file (or without one): these stamps and deletes, and nothing of
  /// the file's for the keys `shadowed` names (every key set, deleted or forgotten since).
  private var changed: [ObjectKey: ObjectStamps] = [:]
  private var changedDeleted: Set<ObjectKey> = []
  private var shadowed: Set<ObjectKey> = []

  init() {}

  /// The stamps `bytes` hold as of local transaction `sequence` (see ``StampsFile``); nil for
  /// anything else.
  init?(fileBytes bytes: Data, sequence: Int) {
    guard let file = StampsFile(bytes, sequence: sequence) else { return nil }
    self.file = file
  }

  /// The stamps of a fold's live objects (its registers after aliases joined) and its deletes.
  init(_ fold: MergedState, live registers: [ObjectKey: MergedState.Registers], view: [String: [UUID: [String: RawJSON]]]) {
    changed.reserveCapacity(registers.count)
    for (key, value) in registers {
      if value.deleted != nil {
        if fold.objects[key]?.deleted != nil { changedDeleted.insert(key) }
      } else if view[key.entity]?[key.id] != nil {
        changed[key] = ObjectStamps(value)
      }
    }
  }

  subscript(key: ObjectKey) -> ObjectStamps? {
    if let stamps = changed[key] { return stamps }
    return shadowed.contains(key) ? nil : file?.object(key)
  }

  func isDeleted(_ key: ObjectKey) -> Bool {
    changedDeleted.contains(key) || (!shadowed.contains(key) && file?.isDeleted(key) == true)
  }

  /// Every object's stamps and every object known deleted, the file's decoded (nil when one of
  /// its bodies does not read): what a compaction writes anew.
  var all: (objects: [ObjectKey: ObjectStamps], deleted: Set<ObjectKey>)? {
    guard let file else { return (changed, changedDeleted) }
    guard var (objects, deleted) = file.all() else { return nil }
    for key in shadowed {
      objects[key] = nil
      deleted.remove(key)
    }
    return (objects.merging(changed) { $1 }, deleted.union(changedDeleted))
  }

  /// How many objects' stamps are known.
  var count: Int {
    guard let file else { return changed.count }
    return file.objectCount - shadowed.filter(file.contains).count + changed.count
  }

  var isEmpty: Bool { file == nil && changed.isEmpty && changedDeleted.isEmpty }

  mutating func set(_ key: ObjectKey, _ stamps: ObjectStamps) {
    changed[key] = stamps
    changedDeleted.remove(key)
    if file != nil { shadowed.insert(key) }
  }

  /// Forgets what is known of an object: its next arrival is merged without its stamps.
  mutating func forget(_ key: ObjectKey) {
    changed[key] = nil
    changedDeleted.remove(key)
    if file != nil { shadowed.insert(key) }
  }

  mutating func delete(_ key: ObjectKey) {
    changed[key] = nil
    changedDeleted.insert(key)
    if file != nil { shadowed.insert(key) }
  }

  /// Keeps the stamps with one applied log entry, whichever process of this device wrote it.
  /// A commit (`origin`: its change file) stamps what its context gave at that file's stamp:
  /// an insert every group, an update the groups it names; a delete it gave is a delete. The
  /// file holds exactly those changes, and every device's fold applies it at that stamp, so
  /// another process's commit is known as well as this one's. The changes it did not give (a
  /// delete rule's, a holder's that another object met: `derived`) are forgotten, and so is
  /// every change of a record that does not say which those are (written by a program before
  /// this). A write that merged into another object (``LogChange/survivor``) is forgotten with
  /// that object: its change file's write joins the survivor's stamps in every fold, though the
  /// survivor's value may not have changed here (an insert whose values it already held). A
  /// merge of arrivals records the stamps its fold set (`stamps`): its objects take those, or
  /// are forgotten.
  mutating func note(_ entry: LogEntry) {
    let derived = entry.derived.map(Set.init)
    for index in entry.changes.indices {
      let key = ObjectKey(entity: entry.changes[index].entity, id: entry.changes[index].id)
      defer { if let survivor = entry.changes[index].survivor { forget(survivor) } }
      guard let origin = entry.origin, let derived, !derived.contains(index) else {
        forget(key)
        continue
      }
      switch entry.changes[index].kind {
      case .insert: set(key, ObjectStamps(stamp: origin))
      case .update:
        if let groups = entry.changes[index].groups, var stamps = self[key] {
          stamps.write(groups, at: origin)
          set(key, stamps)
        } else {
          forget(key)
        }
      case .delete: if entry.changes[index].mergedInto == nil { delete(key) } else { forget(key) }
      case .retire: forget(key)
      }
    }
    for (entity, ids) in entry.writtenUnchanged ?? [:] {
      for id in ids { forget(ObjectKey(entity: entity, id: id)) }
    }
    guard let text = entry.stamps, let merged = Data(base64Encoded: text).flatMap({ WriteStamps(fileBytes: $0, sequence: entry.sequence) }),
      let (objects, deleted) = merged.all
    else { return }
    for (key, stamps) in objects { set(key, stamps) }
    for key in deleted { delete(key) }
  }
}
