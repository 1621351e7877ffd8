import Foundation
import PlainStore

extension Tracker {
  /// What merging one baby into another did.
  public struct BabyMerge: Sendable, Hashable {
    /// The baby removed, whose feeds and diaper changes moved.
    public var from: BabyProfile
    /// The baby that has them now.
    public var into: BabyProfile
    /// Feeds and diaper changes moved onto ``into``.
    public var movedFeeds: Int
    public var movedDiapers: Int
    /// Events both babies had at the same time (the same feed or diaper change logged for each,
    /// as two phones do before they see each other): kept once, as ``into`` has it.
    public var keptOnce: Int
  }

  /// Merges the baby `fromID` into `intoID`: every feed and diaper change of the one moves onto
  /// the other, and the one is removed, in one save — one commit that every device folds the
  /// same way (the moves are field edits, the removal a delete). The way out when two phones each
  /// added "Ava" before they saw each other.
  ///
  /// An event of `fromID` that `intoID` has already (a feed starting at the same moment, a
  /// diaper change of the same moment and type: the schema's unique keys) is kept once, as
  /// `intoID` has it; the cached last amount follows `intoID`'s newest feed.
  ///
  /// - Throws: ``ScreenModelError/unknownBaby(_:)``; ``ScreenModelError/invalid(_:)`` when both
  ///   are the same baby; a `StoreError` from the save (nothing is written).
  @discardableResult
  public func mergeBaby(_ fromID: UUID, into intoID: UUID) throws -> BabyMerge {
    let from = try baby(fromID)
    let into = try baby(intoID)
    guard fromID != intoID else { throw ScreenModelError.sameBaby(name: from.name) }
    let fromOptional: UUID? = fromID
    let feeds = try context.fetch(FetchDescriptor<FeedSession>(predicate: #Predicate { $0.profileID == fromOptional }))
    let diapers = try context.fetch(FetchDescriptor<DiaperChange>(predicate: #Predicate { $0.profileID == fromOptional }))
    var merge = BabyMerge(from: from, into: into, movedFeeds: 0, movedDiapers: 0, keptOnce: 0)
    for feed in feeds {
      var moved = feed
      moved.profileID = intoID
      if try context.clashingObject(with: moved, schema: schema) != nil {
        context.delete(FeedSession.self, id: feed.uuid)
        merge.keptOnce += 1
      } else {
        context.update(moved, from: feed)
        merge.movedFeeds += 1
      }
    }
    for diaper in diapers {
      var moved = diaper
      moved.profileID = intoID
      if try context.clashingObject(with: moved, schema: schema) != nil {
        context.delete(DiaperChange.self, id: diaper.uuid)
        merge.keptOnce += 1
      } else {
        context.update(moved, from: diaper)
        merge.movedDiapers += 1
      }
    }
    context.delete(from)
    try save()
    updateCache { try $0.remove(forBabyID: fromID) }
    followNewestAmount(of: intoID)
    return merge
  }
}
