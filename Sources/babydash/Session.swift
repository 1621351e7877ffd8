import BabyDashboard
import Foundation
import PlainStore

/// What every command shares: the app-group folder, what "now" is and the zone times are read
/// and shown in, and — opened when first needed — the store and the key-value store.
@MainActor
final class Session {
  let appGroupDirectory: URL
  let now: Date
  /// True when `--now` fixed the time: then the store's transactions are stamped with it too,
  /// so that scripted runs write the same bytes every time.
  let nowIsFixed: Bool
  let timeZone: TimeZone
  let output: Output
  let environment: [String: String]
  private var openedContainer: StoreContainer?

  init(values: [String: String], environment: [String: String], output: Output, command: Command?) throws {
    self.environment = environment
    self.output = output
    appGroupDirectory = try AppGroup.current.resolve(argument: values["--app-group"], environment: environment)
    if let zoneName = values["--time-zone"] {
      guard let zone = TimeZone(identifier: zoneName) else {
        throw CommandLineError.usage(
          "bad value '\(zoneName)' for --time-zone: not an IANA time zone (e.g. Europe/Berlin)", command)
      }
      timeZone = zone
    } else {
      timeZone = values["--now"] == nil ? TimeZone.current : TimeZone(identifier: "UTC")!
    }
    if let text = values["--now"] {
      guard let parts = ISO8601.parseParts(text) else {
        throw CommandLineError.usage(
          "bad value '\(text)' for --now: expected ISO 8601, e.g. 2026-01-15T09:30:00Z", command)
      }
      now = parts.offsetSeconds.map { parts.date(offsetSeconds: $0) } ?? TimeArgument.localDate(parts, in: timeZone)
      nowIsFixed = true
    } else {
      now = Date()
      nowIsFixed = false
    }
  }

  var storeDirectory: URL { AppGroup.storeURL(in: appGroupDirectory) }

  var storeExists: Bool {
    FileManager.default.fileExists(atPath: storeDirectory.appendingPathComponent("store.json").path)
  }

  /// The store, created if it is not there yet: for commands that add data.
  func store() throws -> StoreContainer {
    if let openedContainer { return openedContainer }
    let fixed = now
    var options = StoreOptions(author: "babydash")
    if nowIsFixed { options.clock = { fixed } }
    let container = try StoreContainer.babyDashboard(inAppGroup: appGroupDirectory, options: options)
    openedContainer = container
    return container
  }

  /// The store if it exists, else an empty one in memory: reading never creates files.
  func storeForReading() throws -> StoreContainer {
    if storeExists || openedContainer != nil { return try store() }
    return StoreContainer.inMemory(schema: BabyDashboardSchema.current)
  }

  var keyValueStore: FileKeyValueStore {
    FileKeyValueStore(appGroup: .current, directory: appGroupDirectory)
  }

  var cache: LastFeedAmountCache { LastFeedAmountCache(store: keyValueStore) }

  func flags() throws -> FeatureFlags { try FeatureFlags.load(from: keyValueStore) }

  var widgetSnapshotsURL: URL { AppGroup.widgetSnapshotsURL(in: appGroupDirectory) }

  /// A dashboard model on the store whose clock says `moment`.
  func dashboard(at moment: Date) throws -> DashboardModel {
    let model = DashboardModel(container: try store(), cache: cache, flags: try flags(), now: { moment })
    try model.reload()
    return model
  }
}
