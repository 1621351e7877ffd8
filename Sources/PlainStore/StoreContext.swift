import Foundation

/// A scratchpad over the store: the counterpart of `NSManagedObjectContext` / SwiftData's
/// `ModelContext`, for value entities.
///
/// Fetch copies, change them, hand them back with ``update(_:)``, and ``save()``. The context
/// remembers the copy it handed out, so a save writes only the properties you changed and keeps
/// what other contexts and processes changed meanwhile. Fetches include unsaved changes.
/// Safe to use from any thread; give each task its own background context all the same.
public final class StoreContext: Sendable {
  let coordinator: StoreCoordinator
  /// Written into the transactions this context commits.
  public let author: String
  private let changes = StoreMutex(PendingChanges())

  init(coordinator: StoreCoordinator, author: String) {
    self.coordinator = coordinator
    self.author = author
  }

  // MARK: Changing

  /// Adds a new object. If one with the same id or the same unique key is stored, the save
  /// merges this one into it instead of duplicating it.
  public func insert<E: Entity>(_ object: E) {
    changes.withLock { $0.record(PendingChange(entity: E.entityName, id: object.id, kind: .insert, value: object)) }
  }

  /// Hands back a changed copy of a stored object. The save writes the properties that differ
  /// from the copy this context last handed out; prefer ``edit(_:id:_:)``, which cannot be
  /// forgotten.
  ///
  /// - Note: The save throws ``StoreError`` `.notFound` if the object is not stored by then. One
  ///   that merged into another on a unique key meanwhile is: the edit reaches that one.
  public func update<E: Entity>(_ object: E) {
    changes.withLock { $0.record(PendingChange(entity: E.entityName, id: object.id, kind: .update, value: object)) }
  }

  /// Hands back `object` as a change of `original`, the copy the editor started from (an edit
  /// form's opening values): the save writes only the properties that differ from `original`,
  /// so what another context or process changed meanwhile stays.
  public func update<E: Entity>(_ object: E, from original: E) {
    changes.withLock { changes in
      changes.snapshots[ObjectKey(entity: E.entityName, id: object.id)] = original
      changes.record(PendingChange(entity: E.entityName, id: object.id, kind: .update, value: object))
    }
  }

  /// Changes the stored object with this id in place and records the change: there is no
  /// separate ``update(_:)`` to forget. Saved with the context's next ``save()``.
  ///
  /// ```swift
  /// try context.edit(Note.self, id: noteID) { $0.text = "#later" }
  /// try context.save()
  /// ```
  /// An object that merged into another on a unique key is edited as that one
  /// (``storedID(_:for:)``).
  /// - Returns: the object as edited.
  /// - Throws: ``StoreError`` `.notFound` naming the entity and id when there is no such object,
  ///   or what `body` throws (nothing is recorded then).
  @discardableResult
  public func edit<E: Entity>(_ type: E.Type, id: UUID, _ body: (inout E) throws -> Void) throws -> E {
    guard let original = try object(E.self, id: id) ?? storedID(E.self, for: id).flatMap({ try object(E.self, id: $0) }) else {
      throw StoreError(.notFound, path: ObjectID(type, id).description, "is not stored, so it cannot be edited — nothing was changed.")
    }
    var edited = original
    try body(&edited)
    if edited != original { update(edited, from: original) }
    return edited
  }

  /// Deletes an object; its delete rules apply when the context saves.
  public func delete<E: Entity>(_ object: E) {
    delete(E.self, id: object.id)
  }

  /// Deletes the object with this id, if there is one when the context saves.
  public func delete<E: Entity>(_ type: E.Type, id: UUID) {
    changes.withLock { $0.record(PendingChange(entity: E.entityName, id: id, kind: .delete)) }
  }

  /// Whether the context holds unsaved changes.
  public var hasChanges: Bool {
    changes.withLock { !$0.isEmpty }
  }

  /// Forgets the unsaved changes.
  public func rollback() {
    changes.withLock { $0.removeAll() }
  }

  /// Commits the unsaved changes as one transaction, durable on disk when it returns.
  ///
  /// All or nothing: uniqueness constraints are checked (a conflicting insert or update merges
  /// into the stored object, property by property, this context's changes winning), references
  /// must point at objects that exist, and delete rules apply. Other contexts see the result in
  /// their next fetch; observers are told. A save with no changes writes nothing. A change made
  /// on another thread while the save commits stays unsaved, for the next save.
  ///
  /// An inserted object sets what it carries: merged into a stored one, its nil properties
  /// leave the stored values alone. The result tells which stored object each merged insert
  /// became (``SaveResult/id(of:)``).
  /// - Returns: the transaction (nil when nothing changed) and the merged objects.
  /// - Throws: ``StoreError``; the context then keeps its changes and the store is unchanged.
  ///   `.invalidObject` names the object and property holding a value store files cannot hold:
  ///   a date outside ``ISO8601/isStorable(_:)``, NaN or an infinity. `.notFound` names an
  ///   updated object that is not stored, or that another context or process deleted.
  @discardableResult
  public func save() throws -> SaveResult {
    let (taken, recorded) = changes.withLock { ($0.all, $0.recorded) }
    var pending = taken
    guard !pending.isEmpty else { return SaveResult(transaction: nil) }
    try StorableCheck.check(&pending)
    if let error = coordinator.schema.nameError { throw error }
    let result = try coordinator.commit(pending, author: author)
    changes.withLock { changes in
      // What the store holds now is the measure of the next update; an object that merged
      // into another is not stored under its own id.
      var stored: [any Entity] = []
      stored.reserveCapacity(pending.count)
      // Nothing recorded while the commit ran: every change was this save's.
      let onlyOurs = changes.recorded == recorded
      if onlyOurs { changes.removeAll() }
      for change in pending {
        let key = ObjectKey(entity: change.entity, id: change.id)
        if !onlyOurs { changes.remove(key, recordedBy: recorded) }
        let mergedAway = !result.merged.isEmpty && result.merged[ObjectID(entityName: key.entity, uuid: key.id)] != nil
        if let value = change.value, !mergedAway, change.kind != .delete {
          stored.append(value)
        } else {
          changes.snapshots[key] = nil
        }
      }
      changes.snapshots.remember(stored: stored)
    }
    return result
  }

  /// Catches up with other processes' commits (see ``StoreContainer/refresh()``).
  public func refresh() throws {
    try coordinator.catchUpWithOtherProcesses()
    coordinator.deliverRemoteChanges()
  }

  // MARK: Reading

  /// The objects the descriptor selects, in its order, including this context's unsaved changes.
  public func fetch<E: Entity>(_ descriptor: FetchDescriptor<E>) throws -> [E] {
    let result = try coordinator.fetch(descriptor, overlay: overlay(E.self, descriptor.includePendingChanges))
    remember(result)
    return result
  }

  /// How many objects the descriptor selects (its limit and offset aside).
  public func fetchCount<E: Entity>(_ descriptor: FetchDescriptor<E>) throws -> Int {
    try coordinator.fetch(descriptor, overlay: overlay(E.self, descriptor.includePendingChanges), counting: true).count
  }

  /// Whether the store has let this id go for good: the object was deleted, or merged into
  /// another on a unique key (on any device whose changes this one has merged). Every device
  /// keeps that, so a save that inserts under the id is refused; a restore gives such an object
  /// a new id instead.
  public func isRetired<E: Entity>(_ type: E.Type, id: UUID) -> Bool {
    coordinator.isRetired(ObjectKey(entity: E.entityName, id: id))
  }

  /// The id of the stored object that `id` names now: `id` itself while its object is stored;
  /// for one that merged into another on a unique key (in a save here, or on another device),
  /// the object it is part of now, which every edit and delete addressed to `id` reaches; nil
  /// when the object was deleted or is not known here.
  public func storedID<E: Entity>(_ type: E.Type, for id: UUID) throws -> UUID? {
    if try object(type, id: id) != nil { return id }
    return coordinator.survivor(of: ObjectKey(entity: E.entityName, id: id))
  }

  /// The objects of `type` that merged into another on a unique key, each id → the stored
  /// object it is part of now (see ``storedID(_:for:)``). With `includingDeleted`, also those
  /// whose object was deleted since, each → the last object it merged into: what a parent who
  /// edits by an old id is told was deleted.
  public func mergedIDs<E: Entity>(_ type: E.Type, includingDeleted: Bool = false) -> [UUID: UUID] {
    coordinator.aliases(of: E.entityName, includingDeleted: includingDeleted)
  }

  /// The object, other than `object` itself, that holds one of its unique keys — the one a
  /// save of `object` would merge it into, as Core Data merges by a uniqueness constraint —
  /// including this context's unsaved changes; nil when a save would keep both. Ask it before
  /// a save to tell a person "that feed is already logged" instead of merging in silence: the
  /// keys are the store's own, read from its index, never restated.
  public func objectSharingAUniqueKey<E: Entity>(with object: E) throws -> E? {
    guard let entity = coordinator.schema.entity(named: E.entityName) else { return nil }
    let keys = entity.uniqueKeys(of: object)
    func shares(_ other: E) -> Bool { other.id != object.id && zip(keys, entity.uniqueKeys(of: other)).contains { $0 == $1 } }
    let pending = changes.withLock { changes in changes.changes(of: E.entityName).map { ($0.id, $0.value as? E) } }
    if let unsaved = pending.lazy.compactMap({ $0.1 }).first(where: shares) { return unsaved }
    let changedHere = Set(pending.map(\.0))
    for id in try coordinator.holders(ofKeysOf: object) where !changedHere.contains(id) {
      if let holder = try self.object(E.self, id: id), shares(holder) { return holder }
    }
    return nil
  }

  /// The object with this id, including this context's unsaved changes; nil if there is none.
  public func object<E: Entity>(_ type: E.Type, id: UUID) throws -> E? {
    let key = ObjectKey(entity: E.entityName, id: id)
    if let change = changes.withLock({ $0[key] }) {
      return change.value as? E
    }
    let object = try coordinator.object(E.self, id: id)
    if let object { remember([object]) }
    return object
  }

  private func overlay<E: Entity>(_ type: E.Type, _ include: Bool) -> ContextOverlay<E> {
    guard include else { return ContextOverlay() }
    return changes.withLock { changes in
      var overlay = ContextOverlay<E>()
      for change in changes.changes(of: E.entityName) {
        overlay.changed[change.id] = .some(change.value as? E)
      }
      return overlay
    }
  }

  private func remember<E: Entity>(_ objects: [E]) {
    changes.withLock { $0.rememberHandedOut(objects) }
  }
}
