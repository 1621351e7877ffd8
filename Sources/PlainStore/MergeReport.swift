import Foundation

/// What a merge of other devices' change files did to this store, object by object, with each
/// object as it was before and as it is after: what an app shows a person ("Mia's 07:00 feed
/// amount changed to 130 mL, was 110 mL") and `babydash sync now` prints. Built by the merge
/// itself, not by a second look.
public struct MergeReport: Sendable {
  /// One object the merge added, changed or removed.
  public struct Change: Sendable {
    public enum Kind: Sendable, Equatable { case inserted, updated, deleted }
    public var entity: String
    public var id: UUID
    public var kind: Kind
    /// The object as this store held it before the merge; nil for one it added.
    public var before: (any Entity)?
    /// The object as the merge leaves it; nil for one it removed.
    public var after: (any Entity)?
    /// For one it removed because it met another on a unique key (the same feed logged on two
    /// devices): the object it is part of now, which edits and deletes of its id reach.
    public var mergedInto: UUID?
    /// For one this store held before the merge: the objects of other devices that merged into
    /// it, because they met it on a unique key (the same feed logged on two devices), whose ids
    /// reach it now. Such an object is listed even when the merge changed none of its values,
    /// as updated, the same before and after.
    public var mergedFrom: [UUID] = []
  }

  /// The names of the devices whose change files were merged (a device with no name: the
  /// first 8 digits of its id), in order.
  public var devices: [String]
  /// Every object the merge changed, by entity and id.
  public var changes: [Change]
}
