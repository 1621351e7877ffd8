import Foundation

/// Why an action of a screen model (``DashboardModel``, ``HistoryModel``, ``HistoryEditModel``)
/// was refused. Nothing was saved when one of these is thrown.
public enum ScreenModelError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No baby with this id is in the store (deleted elsewhere?).
  case unknownBaby(UUID)
  /// The baby already has a feed in progress.
  case alreadyFeeding(babyName: String)
  /// The baby has no feed in progress to finish.
  case noFeedInProgress(babyName: String)
  /// A baby's name is empty.
  case emptyName
  /// A baby merged into itself.
  case sameBaby(name: String)
  /// The feed or diaper change being edited or deleted is no longer in the store.
  case notFound(entity: String, id: UUID)
  /// The form has issues; each says what to fix.
  case invalid([ValidationIssue])
  /// Another baby already has this name; adding or renaming to it must be asked for explicitly.
  case nameInUse(name: String, babyIDs: [UUID])
  /// The values are possible but doubtful (each ``ValidationIssue/needsConfirmation``): saved
  /// when the person confirms them (`confirmed: true`, `babydash … --yes`).
  case unconfirmed([ValidationIssue])

  public var description: String {
    switch self {
    case .unknownBaby(let id):
      return "No baby with id \(id.uuidString) is in the store: reload the dashboard; it may have been deleted on another device."
    case .alreadyFeeding(let name):
      return "\(name) is already feeding: finish that feed before starting another."
    case .noFeedInProgress(let name):
      return "\(name) has no feed in progress: start a feed first."
    case .emptyName:
      return "A baby needs a name: enter at least one character that is not a space."
    case .sameBaby(let name):
      return "Both are the same baby (\(name)): give the two babies to merge, the one to remove first."
    case .notFound(let entity, let id):
      return "The \(entity) \(id.uuidString) is no longer in the store: reload the history; it may have been deleted elsewhere."
    case .invalid(let issues):
      return issues.map(\.message).joined(separator: " ")
    case .unconfirmed(let issues):
      return issues.map(\.message).joined(separator: " ") + " Confirm to save it as it is."
    case .nameInUse(let name, let ids):
      return "Another baby is already named \(name) (id \(ids.map(\.uuidString).joined(separator: ", "))): "
        + "choose another name, or confirm that both share it; then address each by its id."
    }
  }
}
