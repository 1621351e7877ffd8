import BabyDashboard
import Foundation
import PlainStore

/// What `babydash export` prints: every object, in a stable order, dates as ISO 8601 UTC with
/// milliseconds, absent values omitted. The same store gives the same bytes.
struct ExportDocument: Encodable {
  var formatVersion = 1
  var babyProfiles: [Baby]
  var feedSessions: [Feed]
  var diaperChanges: [Diaper]

  struct Baby: Encodable {
    var id: UUID
    var name: String
    var feedTerm: Double
    var createdAt: String
  }

  struct Feed: Encodable {
    var uuid: UUID
    var profileID: UUID?
    var startTime: String
    var endTime: String?
    var amountValue: Double?
    var amountUnitSymbol: String?
    var memoText: String?
  }

  struct Diaper: Encodable {
    var uuid: UUID
    var profileID: UUID?
    var timestamp: String
    var type: String
  }

  init(context: StoreContext) throws {
    let time = ISO8601.formatMilliseconds
    babyProfiles = try context.fetch(FetchDescriptor<BabyProfile>())
      .sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
      .map { Baby(id: $0.id, name: $0.name, feedTerm: $0.feedTerm, createdAt: time($0.createdAt)) }
    feedSessions = try context.fetch(FetchDescriptor<FeedSession>())
      .sorted { ($0.startTime, $0.uuid.uuidString) < ($1.startTime, $1.uuid.uuidString) }
      .map {
        Feed(
          uuid: $0.uuid, profileID: $0.profileID, startTime: time($0.startTime), endTime: $0.endTime.map(time),
          amountValue: $0.amountValue, amountUnitSymbol: $0.amountUnitSymbol, memoText: $0.memoText)
      }
    diaperChanges = try context.fetch(FetchDescriptor<DiaperChange>())
      .sorted { ($0.timestamp, $0.uuid.uuidString) < ($1.timestamp, $1.uuid.uuidString) }
      .map { Diaper(uuid: $0.uuid, profileID: $0.profileID, timestamp: time($0.timestamp), type: $0.type.rawValue) }
  }

  func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }
}
