/// Refuses, before anything is written, a save holding a value that store files cannot hold
/// (a date outside years 0000–9999, NaN or an infinity): the encoder would refuse it halfway
/// through a commit, and an in-memory store would keep what a file store cannot.
///
/// The rule itself is `StorableValue`'s, applied by encoding each changed object as the commit
/// will; this turns the encoder's error into a `StoreError` that names the object and property.
/// The JSON is the commit's: a change file writes an object the commit stores as given from it,
/// so that each object is encoded once.
enum StorableCheck {
  /// Checks every value and keeps its JSON in its change (`PendingChange.encoded`). A bulk
  /// save's later half is encoded on another thread meanwhile; each half stops at its first
  /// refusal, and the first in save order is thrown, as on one thread.
  static func check(_ changes: inout [PendingChange]) throws {
    let split = changes.count >= StoreCoordinator.concurrentWorkThreshold ? changes.count / 2 : changes.count
    // The later values copied out, so that this thread's array is never shared (writing to
    // a shared one would copy it whole).
    let laterValues = changes[split...].map(\.value)
    let later = laterValues.isEmpty ? nil : ConcurrentWork { encode(laterValues) }
    let earlier = encode(changes[..<split].map(\.value))
    let parts = [(start: 0, earlier), (start: split, try later?.result() ?? Encoded())]
    for (start, part) in parts {
      guard let (offset, error) = part.failure else { continue }
      if case EncodingError.invalidValue(_, let context) = error {
        throw refusal(changes[start + offset], property: name(context.codingPath), context.debugDescription)
      }
      throw refusal(changes[start + offset], property: nil, "cannot be encoded: \(error)")
    }
    for (start, part) in parts {
      for (offset, json) in part.json.enumerated() where json != nil { changes[start + offset].encoded = json }
    }
  }

  /// The JSON of each value in turn, up to the first that cannot be encoded.
  private struct Encoded {
    var json: [RawJSON?] = []
    var failure: (offset: Int, error: any Error)?
  }

  private static func encode(_ values: [(any Entity)?]) -> Encoded {
    let encoder = StoreCoding.makeEncoder().reusing()
    var encoded = Encoded()
    encoded.json.reserveCapacity(values.count)
    for (offset, value) in values.enumerated() {
      do {
        encoded.json.append(try value.map { RawJSON(bytes: try encoder.encodeBytes(AnyEncodableEntity(value: $0))) })
      } catch {
        encoded.failure = (offset, error)
        break
      }
    }
    return encoded
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
