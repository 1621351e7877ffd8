/// An error about one file or object, presented the one way every such error reads:
/// `kind at 'path': detail` — what, where, and (in the detail) what to do.
///
/// ```swift
/// struct CacheError: LocatedError {
///   var kind: String { "damaged" }
///   var path: String
///   var detail: String
/// }
/// // damaged at 'prefs.json': not a key-value file — restore it or move it away
/// ```
public protocol LocatedError: Error, CustomStringConvertible {
  /// What kind of problem, in a few words: "damaged", "newer format 3", "I/O error".
  var kind: String { get }
  /// The file or object concerned.
  var path: String { get }
  /// The reason and what to do.
  var detail: String { get }
}

extension LocatedError {
  public var description: String { "\(kind) at '\(path)': \(detail)" }
}
