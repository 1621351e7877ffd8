import Foundation
import PlainStore

extension Tracker {
  /// Logs a diaper change at `time` (default: now).
  ///
  /// - Throws: ``ScreenModelError/invalid(_:)`` for a time in the future, or with
  ///   ``ValidationIssue/sameDiaperChangeExists`` when one of this type is logged then already.
  @discardableResult
  public func logDiaper(_ type: DiaperType, for babyID: UUID, at time: Date? = nil) throws -> DiaperChange {
    let time = time ?? now()
    try refuse(TrackerRules.issues(forTime: time, now: now()))
    _ = try baby(babyID)
    let diaper = DiaperChange(uuid: newID(), profileID: babyID, timestamp: time, type: type)
    if try context.clashingObject(with: diaper, schema: schema) != nil {
      throw ScreenModelError.invalid([.sameDiaperChangeExists])
    }
    context.insert(diaper)
    try save()
    return diaper
  }

  /// Changes a diaper change's time, type or baby; nil leaves a value as stored.
  ///
  /// - Throws: ``ScreenModelError/notFound(entity:id:)``, ``ScreenModelError/unknownBaby(_:)``,
  ///   ``ScreenModelError/invalid(_:)``.
  @discardableResult
  public func editDiaper(_ id: UUID, timestamp: Date? = nil, type: DiaperType? = nil, profileID: UUID?? = nil) throws -> DiaperChange {
    let stored = try context.existing(DiaperChange.self, id: id)
    if case .some(.some(let babyID)) = profileID { _ = try baby(babyID) }
    var diaper = stored
    if let timestamp {
      try refuse(TrackerRules.issues(forTime: timestamp, now: now()))
      diaper.timestamp = timestamp
    }
    if let type { diaper.type = type }
    if let profileID { diaper.profileID = profileID }
    if try context.clashingObject(with: diaper, schema: schema) != nil {
      throw ScreenModelError.invalid([.sameDiaperChangeExists])
    }
    guard diaper != stored else { return stored }
    // Only what changed, under the id the parent gave (see `editFeed`).
    var (addressed, from) = (diaper, stored)
    (addressed.uuid, from.uuid) = (id, id)
    context.update(addressed, from: from)
    try save()
    return diaper
  }

  /// Deletes a diaper change.
  public func deleteDiaper(_ id: UUID) throws {
    _ = try context.existing(DiaperChange.self, id: id)
    context.delete(DiaperChange.self, id: id)  // the id the parent gave (see `editFeed`)
    try save()
  }
}
