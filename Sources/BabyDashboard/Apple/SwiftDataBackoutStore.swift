#if canImport(SwiftData)
  import Foundation
  import SwiftData

  /// How one of the app's SwiftData models reads and writes a legacy record: the few lines the
  /// app gives for each of its three models.
  ///
  /// ```swift
  /// let feeds = SwiftDataBackoutModel<FeedSessionModel, LegacyFeedSession>(
  ///   make: { FeedSessionModel(legacy: $0) }, read: { $0.legacy }, write: { $0.legacy = $1 })
  /// ```
  public struct SwiftDataBackoutModel<Model: PersistentModel, Record: LegacyRecord> {
    public var make: (Record) -> Model
    public var read: (Model) -> Record
    public var write: (Model, Record) -> Void

    public init(make: @escaping (Record) -> Model, read: @escaping (Model) -> Record, write: @escaping (Model, Record) -> Void) {
      self.make = make
      self.read = read
      self.write = write
    }
  }

  /// The backout's ``BackoutStore`` on the phone: the app's `ModelContext`, written through
  /// SwiftData's own API (fetch, insert, delete, save, rollback) and nothing else, so that its
  /// history and CloudKit mirroring stay in step. Linux type-checks this file against a stub of
  /// exactly these declarations (Scripts/check-apple-stub.sh); what applying means is
  /// ``BackoutStore/apply(_:)``'s, tested through ``LegacyExportBackoutStore``.
  public final class SwiftDataBackoutStore<Baby: PersistentModel, Feed: PersistentModel, Diaper: PersistentModel>: BackoutStore {
    let context: ModelContext
    let babies: SwiftDataBackoutModel<Baby, LegacyBabyProfile>
    let feeds: SwiftDataBackoutModel<Feed, LegacyFeedSession>
    let diapers: SwiftDataBackoutModel<Diaper, LegacyDiaperChange>

    public init(
      context: ModelContext, babies: SwiftDataBackoutModel<Baby, LegacyBabyProfile>,
      feeds: SwiftDataBackoutModel<Feed, LegacyFeedSession>, diapers: SwiftDataBackoutModel<Diaper, LegacyDiaperChange>
    ) {
      self.context = context
      self.babies = babies
      self.feeds = feeds
      self.diapers = diapers
    }

    // The rows of each model by id, fetched once when the first change of that model comes.
    private let babyRows = RowIndex<Baby>()
    private let feedRows = RowIndex<Feed>()
    private let diaperRows = RowIndex<Diaper>()

    public func put(_ record: LegacyBabyProfile, id: UUID) throws { try put(record, id: id, babies, babyRows) }
    public func put(_ record: LegacyFeedSession, id: UUID) throws { try put(record, id: id, feeds, feedRows) }
    public func put(_ record: LegacyDiaperChange, id: UUID) throws { try put(record, id: id, diapers, diaperRows) }

    public func remove(entity: String, id: UUID) throws {
      switch entity {
      case BabyProfile.entityName: try remove(id, babies, babyRows)
      case FeedSession.entityName: try remove(id, feeds, feedRows)
      case DiaperChange.entityName: try remove(id, diapers, diaperRows)
      default: throw BackoutStoreError.unknownEntity(entity)
      }
    }

    public func save() throws { try context.save() }

    public func rollback() {
      context.rollback()
      babyRows.byID = nil
      feedRows.byID = nil
      diaperRows.byID = nil
    }

    /// The first row of `id` is set and any other goes: the import merged them into one object.
    private func put<Model, Record>(_ record: Record, id: UUID, _ model: SwiftDataBackoutModel<Model, Record>, _ index: RowIndex<Model>) throws {
      let rows = try index.rows(id, context, model)
      if let row = rows.first {
        model.write(row, record)
        for extra in rows.dropFirst() { context.delete(extra) }
        index.byID?[id] = [row]
      } else {
        let row = model.make(record)
        context.insert(row)
        index.byID?[id, default: []].append(row)
      }
    }

    private func remove<Model, Record>(_ id: UUID, _ model: SwiftDataBackoutModel<Model, Record>, _ index: RowIndex<Model>) throws {
      for row in try index.rows(id, context, model) { context.delete(row) }
      index.byID?[id] = nil
    }
  }

  /// One model's rows by their ``LegacyRecord/backoutID``: a backout looks up each of its changes,
  /// and fetching every row once beats fetching them for each.
  private final class RowIndex<Model: PersistentModel> {
    var byID: [UUID: [Model]]?

    func rows<Record>(_ id: UUID, _ context: ModelContext, _ model: SwiftDataBackoutModel<Model, Record>) throws -> [Model] {
      if byID == nil {
        byID = Dictionary(grouping: try context.fetch(SwiftData.FetchDescriptor<Model>()), by: { model.read($0).backoutID })
      }
      return byID?[id] ?? []
    }
  }
#endif
