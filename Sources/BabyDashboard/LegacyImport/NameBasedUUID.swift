import Foundation

/// Name-based UUIDs (RFC 9562 version 5: SHA-1 over a namespace and a name).
///
/// The importer gives each legacy feed and diaper a uuid derived from its identity, so that every
/// run, including one resumed after a crash, produces the same uuid for the same record.
enum NameBasedUUID {
  /// The namespace of the legacy importer's uuids: chosen once, and never to change, since a new
  /// one would give every imported record a new uuid.
  static let legacyImportNamespace = UUID(uuidString: "3F0D8C1E-5B7A-5E2C-9A41-6C2B7D9E0F13")!

  /// The version 5 UUID of `name` in `namespace`.
  static func make(namespace: UUID, name: String) -> UUID {
    let ns = namespace.uuid
    var bytes: [UInt8] = [
      ns.0, ns.1, ns.2, ns.3, ns.4, ns.5, ns.6, ns.7, ns.8, ns.9, ns.10, ns.11, ns.12, ns.13, ns.14, ns.15,
    ]
    bytes.append(contentsOf: Array(name.utf8))
    var d = SHA1.digest(bytes)
    d[6] = (d[6] & 0x0F) | 0x50  // version 5
    d[8] = (d[8] & 0x3F) | 0x80  // RFC 4122 variant
    return UUID(uuid: (d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10], d[11], d[12], d[13], d[14], d[15]))
  }
}
