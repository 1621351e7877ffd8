import Foundation

/// The names a schema's key paths have in files: the keys an entity's Codable writes them under
/// (what its JSON says), found once per entity type when a schema is built.
///
/// How: a probe value of the entity is decoded from ``CodableKeyProbe``, which gives every leaf
/// a value no other leaf has, and encoded as the store encodes objects; a key path is named by
/// the one key whose JSON text is its value's. A leaf of two values (a `Bool`, an enum of two
/// cases) cannot stand apart in one probe, so the probe is decoded once per bit of the leaves'
/// count, each leaf holding its bit of its number: the run of texts names one key.
enum CodableKeyNames {
  /// Per entity type, the probe values with their JSON, one per bit, or why there are none.
  private static let probes = StoreMutex<[ObjectIdentifier: Result<[ProbeValue], StoreError>]>([:])

  struct ProbeValue: Sendable {
    let value: any Entity
    let json: [String: RawJSON]
  }

  /// The file name of each key path, in order, or the schema error that names the first one
  /// that names no key of the entity's JSON. `role` says where the schema names them
  /// ("indexed", "fieldGroups[1]"), for a key path Swift cannot print (a computed property).
  static func names<E: Entity>(of keyPaths: [PartialKeyPath<E>], in type: E.Type, role: String) -> Result<[String], StoreError> {
    let probed = probes.withLock { cache in
      if let known = cache[ObjectIdentifier(type)] { return known }
      let made = probe(type)
      cache[ObjectIdentifier(type)] = made
      return made
    }
    return probed.flatMap { values in
      var names: [String] = []
      for (index, keyPath) in keyPaths.enumerated() {
        guard let name = name(of: keyPath, in: values) else {
          let printed = displayName(of: keyPath)
          return .failure(
            StoreError(
              .invalidObject, path: "\(E.entityName)." + (printed.hasPrefix("<") ? "\(role)[\(index)]" : printed),
              "the schema names this key path, but \(E.entityName)'s Codable writes it under no key of its own (a computed property, one its CodingKeys leave out, or one its encode(to:) writes otherwise) — name a stored property that its JSON holds; nothing was read or written."))
        }
        names.append(name)
      }
      return .success(names)
    }
  }

  /// The one key whose text, in every probe, is the key path's value's.
  private static func name<E: Entity>(of keyPath: PartialKeyPath<E>, in values: [ProbeValue]) -> String? {
    var candidates: Set<String>?
    for probe in values {
      guard let value = probe.value as? E, let text = fragment(value[keyPath: keyPath]) else { return nil }
      let keys = Set(probe.json.compactMap { $0.value == text ? $0.key : nil })
      candidates = candidates.map { $0.intersection(keys) } ?? keys
    }
    guard let candidates, candidates.count == 1 else { return nil }
    return candidates.first
  }

  /// A value's JSON text as the store writes it inside an object.
  private static func fragment(_ value: Any) -> RawJSON? {
    guard let encodable = value as? any Encodable,
      let data = try? StoreCoding.makeEncoder().encode(Wrapped(value: encodable)),
      let object = try? StoreCoding.makeDecoder().decode([String: RawJSON].self, from: data)
    else { return nil }
    return object["value"]
  }

  private struct Wrapped: Encodable {
    let value: any Encodable
    enum CodingKeys: CodingKey { case value }
    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(value, forKey: .value)
    }
  }

  private static func probe<E: Entity>(_ type: E.Type) -> Result<[ProbeValue], StoreError> {
    do {
      let first = CodableKeyProbe(bit: 0)
      var values = [try ProbeValue(first.decode(type))]
      // Leaves numbered 0..<count: enough bits to tell the highest number from the others.
      let bits = max(1, Int.bitWidth - max(first.leaves - 1, 1).leadingZeroBitCount)
      for bit in 1..<bits { values.append(try ProbeValue(CodableKeyProbe(bit: bit).decode(type))) }
      return .success(values)
    } catch {
      return .failure(
        StoreError(
          .invalidObject, path: E.entityName,
          "its JSON names cannot be read from its Codable: decoding a probe value failed (\(StoreCoding.reason(error))). A property of an enum type must be CaseIterable, and a type's init(from:) must take any value of its properties' types; nothing was read or written."
        ))
    }
  }
}

extension CodableKeyNames.ProbeValue {
  init<E: Entity>(_ value: E) throws {
    self.value = value
    self.json = try StoreCoding.makeDecoder().decode([String: RawJSON].self, from: StoreCoding.makeEncoder().encode(value))
  }
}

/// "\Note.createdAt" → "createdAt": how a key path reads in a message. Never a name in files:
/// those are ``CodableKeyNames``'.
func displayName(of keyPath: AnyKeyPath) -> String {
  let text = String(describing: keyPath)
  guard let dot = text.firstIndex(of: ".") else { return text }
  return String(text[text.index(after: dot)...])
}
