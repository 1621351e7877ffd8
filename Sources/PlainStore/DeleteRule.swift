/// What happens to the objects that refer to an object when that object is deleted.
public enum DeleteRule: String, Codable, Sendable {
  /// The references become `nil`.
  case nullify
  /// The referring objects are deleted too.
  case cascade
  /// The delete fails while any object still refers to the target. A referrer another device
  /// saved unaware of the delete has its reference cleared when the two meet: deletes win
  /// (see DeleteRules.md in the documentation).
  case deny
}
