/// Refuses, before anything is written, a save holding a value that store files cannot hold
/// (a date outside years 0000–9999, NaN or an infinity): the encoder would refuse it halfway
/// through a commit, and an in-memory store would keep what a file store cannot.
///
/// The rule itself is `StorableValue`'s, applied by encoding each changed object as the commit
/// will; this turns the encoder's error into a `StoreError` that names the object and property.
enum StorableCheck {
  static func check(_ changes: [PendingChange]) throws {
    let encoder = StoreCoding.makeEncoder()
    for change in changes {
      guard let value = change.value else { continue }
      do {
        _ = try encoder.encode(AnyEncodableEntity(value: value))
      } catch EncodingError.invalidValue(_, let context) {
        throw refusal(change, property: name(context.codingPath), context.debugDescription)
      } catch {
        throw refusal(change, property: nil, "cannot be encoded: \(error)")
      }
    }
  }

  private static func refusal(_ change: PendingChange, property: String?, _ reason: String) -> StoreError {
    let what = property.map { "property '\($0)': " } ?? ""
    return StoreError(
      .invalidObject, path: "\(change.entity) \(change.id.uuidString)",
      "\(what)\(reason) — nothing was saved; correct the value and save again.")
  }

  private static func name(_ path: [any CodingKey]) -> String {
    path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
  }
}
