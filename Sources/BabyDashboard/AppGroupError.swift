/// The app group's container is not there: the process lacks the App Groups entitlement for
/// this identifier, or the identifier is misspelt.
///
/// There is deliberately no fallback folder: a folder inside one process's own sandbox would
/// give the app and its widget two different stores.
public struct AppGroupError: Error, Equatable, CustomStringConvertible {
  /// The app group that has no container, e.g. `group.sungdoo.babyDashboard`.
  public var identifier: String

  public init(identifier: String) {
    self.identifier = identifier
  }

  public var description: String {
    "no container for app group '\(identifier)': add it under App Groups in the entitlements of the app and of "
      + "every extension that shares the store (or pass a folder with --app-group or \(AppGroup.environmentVariable))"
  }
}
