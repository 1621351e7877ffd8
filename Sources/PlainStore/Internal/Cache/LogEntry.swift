import Foundation

/// A record of log/<sequence>.log (a file of its own in format 1): one local transaction, with
/// the full value of every object it puts — or, for a commit of this device, with the values
/// left in its change file (`origin`), which holds them already.
struct LogEntry: Codable {
  var formatVersion = StoreFiles.formatVersion
  var sequence: Int
  var author: String
  var timestamp: Date
  var changes: [LogChange]
  /// The change files this transaction folds in (format 2).
  var folded: [ChangeStamp]?
  /// Per device, the changes up to a sequence that it folds in through snapshots; the stamp's
  /// clock is the snapshot's.
  var foldedThrough: [ChangeStamp]?
  /// Folded changes that share their device and sequence with another.
  var foldedDivergent: [ChangeStamp]?
  /// Snapshots folded in, as "<device>" → its number.
  var foldedSnapshots: [String: Int]?
  /// Folded snapshots that share their device and number with another.
  var foldedDivergentSnapshots: [ChangeStamp]?
  /// The change file that holds the values of the objects this transaction puts.
  var origin: ChangeStamp?
  /// Written by a merge that folded every file: every object the fold knows but does not show,
  /// as of this entry (see ``RetiredObjects``).
  var retired: RetiredObjects?
  /// A merge of arrivals alone: the newest clock among the files it folded, the time its key
  /// changes are recorded at (`StoreState.newestKeyChange`; a commit's is its `origin`'s).
  var written: UInt64?
  /// A merge of arrivals alone: the objects whose arrived writes left them as they were, by
  /// entity (ids in UUID order). Written all the same: their stamps moved (``WriteStamps``).
  var writtenUnchanged: [String: [UUID]]?
  /// A commit's: the positions of the changes its context did not give (a delete rule's, a
  /// holder's that another object met), which its change file does not hold; nil in a record
  /// of a program before this one, whose changes' stamps are then not known (``WriteStamps``).
  var derived: [Int]?
  /// A merge of arrivals alone: the ``WriteStamps`` its fold set, as their file's bytes
  /// (`WriteStamps+File.swift`) in base64.
  var stamps: String?
  /// Whether the entry deletes an object or changes a unique key of one that existed (see
  /// `MergeSchema.changesKeys`); nil: it does not.
  var reshapes: Bool?

  /// Whether the entry changes an object. One that does not only records what a merge folded
  /// (a snapshot that held nothing new): it keeps its place in the log, so that every process
  /// folds the same, but it is no transaction to history readers or observers.
  var changesObjects: Bool { changes.contains { $0.kind != .retire } }

  var transaction: Transaction {
    var byEntity: [String: EntityChanges] = [:]
    // One entity's run of changes is gathered before it goes into the table (a log entry holds
    // them entity by entity): one lookup per run, not per change. Each change is read in place.
    var run = EntityChanges()
    var runEntity: String?
    func endRun() {
      guard let runEntity else { return }
      if let earlier = byEntity.removeValue(forKey: runEntity) {
        run.inserted = earlier.inserted + run.inserted
        run.updated = earlier.updated + run.updated
        run.deleted = earlier.deleted + run.deleted
      }
      byEntity[runEntity] = run
      run = EntityChanges()
    }
    for index in changes.indices where changes[index].kind != .retire {
      if changes[index].entity != runEntity {
        endRun()
        runEntity = changes[index].entity
      }
      switch changes[index].kind {
      case .insert: run.inserted.append(changes[index].id)
      case .update: run.updated.append(changes[index].id)
      case .delete: run.deleted.append(changes[index].id)
      case .retire: break  // left out above
      }
    }
    endRun()
    return Transaction(sequence: sequence, author: author, timestamp: timestamp, changes: byEntity)
  }
}

/// A commit writes one log record, under the store's lock: its members straight into the
/// encoder's buffer, not through Codable's keyed container (63k instructions a one-feed
/// record, a sixth of a commit). The same members, keys and order as the synthesized
/// `Encodable` would write; `encode(to:)` writes them through any other encoder.
extension LogEntry: JSONRecord {
  func encode(to encoder: Encoder) throws {
    try encodeRecord(to: encoder)
  }

  func encodeMembers(_ members: inout some JSONRecordMembers) throws {
    try members.encode(author, forKey: "author")
    try members.encode(changes, forKey: "changes")
    if let derived { try members.encode(derived, forKey: "derived") }
    if let folded { try members.encode(folded.map(\.description), forKey: "folded") }
    if let foldedDivergent { try members.encode(foldedDivergent.map(\.description), forKey: "foldedDivergent") }
    if let foldedDivergentSnapshots {
      try members.encode(foldedDivergentSnapshots.map(\.description), forKey: "foldedDivergentSnapshots")
    }
    if let foldedSnapshots { try members.encode(foldedSnapshots, forKey: "foldedSnapshots") }
    if let foldedThrough { try members.encode(foldedThrough.map(\.description), forKey: "foldedThrough") }
    try members.encode(formatVersion, forKey: "formatVersion")
    if let origin { try members.encode(origin.description, forKey: "origin") }
    if let reshapes { try members.encode(reshapes, forKey: "reshapes") }
    if let retired { try members.encode(retired, forKey: "retired") }
    try members.encode(sequence, forKey: "sequence")
    if let stamps { try members.encode(stamps, forKey: "stamps") }
    try members.encode(timestamp, forKey: "timestamp")
    if let written { try members.encode(written, forKey: "written") }
    if let writtenUnchanged { try members.encode(writtenUnchanged, forKey: "writtenUnchanged") }
  }
}

/// The order a log entry holds its changes in: by entity, then by id.
enum LogOrder {
  /// The positions `0..<count` in log order, given each one's entity and id. Sorts keys of a
  /// few words, not the changes: a bulk save orders tens of thousands.
  static func positions(count: Int, entity: (Int) -> String, id: (Int) -> UUID) -> [Int] {
    var names: [String] = []  // a schema's few names, compared rather than hashed
    var keys: [(rank: Int, order: UUIDOrder, position: Int)] = []
    keys.reserveCapacity(count)
    for position in 0..<count {
      let name = entity(position)
      let rank: Int
      if let known = names.firstIndex(of: name) {
        rank = known
      } else {
        rank = names.count
        names.append(name)
      }
      keys.append((rank, uuidOrder(id(position)), position))
    }
    // Ranked in the order the names came; each takes its name's place among them sorted.
    let sorted = names.sorted()
    let rankInLog = names.map { sorted.firstIndex(of: $0)! }
    for index in keys.indices { keys[index].rank = rankInLog[keys[index].rank] }
    keys.sort { $0.rank != $1.rank ? $0.rank < $1.rank : $0.order < $1.order }
    return keys.map(\.position)
  }
}

extension [LogChange] {
  /// Puts the changes in log order (`LogOrder`), swapping each change into its place, never
  /// copying one.
  mutating func sortInLogOrder() {
    // Read in place: `self[i].id` copies the whole change first.
    let source = _InPlace.reading(self) { changes in
      LogOrder.positions(count: changes.count, entity: { changes[$0].entity }, id: { changes[$0].id })
    }  // the change that goes at each position
    _InPlace.permute(&self, taking: source)
  }
}
