import Foundation

/// Which SwiftData row a feed or diaper change of the new store is found by, where that is not
/// its id: a row is found by the id its unique key derives (``LegacyRecord/backoutID``), which is
/// the new store's id only for what the import brought and has kept its start. A feed logged
/// after the cutover has an id of its own, and an edited start derives another: once handed back,
/// the row's id is recorded here, so that the next backout edits that row rather than adding one.
///
/// Kept in the app group's ``KeyValueStore`` (`backoutRowIDs`), beside the cutover: a rebuild of
/// the store's cache keeps it.
public struct BackoutRowIDs: Sendable, Equatable {
  /// The key in the app group's ``KeyValueStore``.
  public static let key = "backoutRowIDs"

  /// The row's id by the new store's id.
  public private(set) var byStoreID: [UUID: UUID] = [:]

  public init() {}

  /// The row's id of `storeID`, where it differs from `storeID`.
  public subscript(storeID: UUID) -> UUID? { byStoreID[storeID] }

  /// After the app applied `handback`: each feed and diaper change put is found by the id its
  /// record derives now, and a deleted one by nothing.
  public mutating func record(_ handback: BackoutHandback) {
    for change in handback.changes {
      switch change {
      case .feedSession(let id, let feed): remember(feed.backoutID, for: id)
      case .diaperChange(let id, let diaper): remember(diaper.backoutID, for: id)
      case .deleted(_, let id): byStoreID[id] = nil
      case .babyProfile: break  // a baby's row is found by the baby's own id
      }
    }
  }

  private mutating func remember(_ rowID: UUID, for storeID: UUID) {
    byStoreID[storeID] = rowID == storeID ? nil : rowID
  }

  /// The ids kept in `keyValueStore`; none when it holds none.
  public static func load(from keyValueStore: any KeyValueStore) throws -> BackoutRowIDs {
    var ids = BackoutRowIDs()
    if let data = try keyValueStore.data(forKey: key) {
      // By the ids' text, as ``save(to:)`` writes them.
      let text = try JSONDecoder().decode([String: UUID].self, from: data)
      ids.byStoreID = Dictionary(uniqueKeysWithValues: text.compactMap { id, row in UUID(uuidString: id).map { ($0, row) } })
    }
    return ids
  }

  public func save(to keyValueStore: any KeyValueStore) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    try keyValueStore.set(try encoder.encode(Dictionary(uniqueKeysWithValues: byStoreID.map { ($0.key.uuidString, $0.value) })), forKey: Self.key)
  }
}
