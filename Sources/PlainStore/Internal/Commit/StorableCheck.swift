/// Refuses, before anything is written, a save holding a value that store files cannot hold
/// (a date outside years 0000–9999, NaN or an infinity): the encoder would refuse it halfway
/// through a commit, and an in-memory store would keep what a file store cannot.
///
/// The rule itself is `StorableValue`'s, applied by encoding each changed object as the commit
/// will; this turns the encoder's error into a `StoreError` that names the object and property.
/// The JSON is the commit's: a change file writes an object the commit stores as given from it,
/// so that each object is encoded once.
enum StorableCheck {
  /// Checks every value and keeps its JSON in its change (`PendingChange.encoded`).
  static func check(_ changes: inout [PendingChange]) throws {
    let encoder = StoreCoding.makeEncoder().reusing()
    for index in changes.indices {
      guard let value = changes[index].value else { continue }
      do {
        changes[index].encoded = RawJSON(bytes: try encoder.encodeBytes(AnyEncodableEntity(value: value)))
      } catch EncodingError.invalidValue(_, let context) {
        throw refusal(changes[index], property: name(context.codingPath), context.debugDescription)
      } catch {
        throw refusal(changes[index], property: nil, "cannot be encoded: \(error)")
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
