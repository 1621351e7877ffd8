/// An entity's properties as exact JSON text, keyed by name: how the engine compares two
/// values of an object property by property without knowing its type.
enum EntityFields {
  static func of(_ object: any Entity) throws -> [String: RawJSON] {
    let data = try StoreCoding.makeEncoder().encode(AnyEncodableEntity(value: object))
    return try StoreCoding.makeDecoder().decode([String: RawJSON].self, from: data)
  }
}
