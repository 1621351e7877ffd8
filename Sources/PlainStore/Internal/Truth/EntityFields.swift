import Foundation

/// An entity's properties as exact JSON text, keyed by name: how the engine compares two
/// values of an object property by property without knowing its type.
enum EntityFields {
  static func of(_ object: any Entity) throws -> [String: RawJSON] {
    try fields(try StoreCoding.makeEncoder().encode(AnyEncodableEntity(value: object)))
  }

  /// The properties of an object from the JSON it was encoded to already (the check before a
  /// commit encodes each value once), read rather than encoded again.
  static func of(json: RawJSON) throws -> [String: RawJSON] {
    try fields(Data(json.bytes))
  }

  /// An object's JSON, the bytes a change file and a segment write for it.
  static func json(of object: any Entity) throws -> RawJSON {
    RawJSON(bytes: Array(try StoreCoding.makeEncoder().encode(AnyEncodableEntity(value: object))))
  }

  private static func fields(_ json: Data) throws -> [String: RawJSON] {
    try StoreCoding.makeDecoder().decode([String: RawJSON].self, from: json)
  }
}
