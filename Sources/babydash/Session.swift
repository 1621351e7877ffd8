import ArgumentParsing
import BabyDashboard
import BabyDashboardText
import Foundation
import PlainStore

/// What every command shares: the app-group folder, what "now" is and the zone times are read
/// and shown in, and — opened when first needed — the store and the key-value store.
@MainActor
final class Session {
  /// The tool's app group in every build, debug or release: one default store, so the binary a
  /// newcomer builds next (`swift run` is debug, an install is release) shows the same family.
  /// (The app's DEBUG builds use `AppGroup.debug`; the tool reaches that store with --app-group.)
  nonisolated static let appGroup = AppGroup.release

  let appGroupDirectory: URL
  /// Where the change files live when they are not in the store's `changes/`.
  let syncFolder: URL?
  let now: Date
  /// True when `--now` fixed the time: then the store's transactions are stamped with it too,
  /// so that scripted runs write the same bytes every time.
  let nowIsFixed: Bool
  let timeZone: TimeZone
  let output: Output
  let environment: [String: String]
  private var openedContainer: StoreContainer?
  /// Whether the store and the app-group folder were there before this command: what a failing
  /// command removes again (``discardNewFiles()``).
  private let storeExistedBefore: Bool
  /// Whether the store's cache was missing when this command began (see ``rebuildNote``).
  private let cacheLostBefore: Bool
  private let appGroupExistedBefore: Bool

  init(options: ParsedArguments, environment: [String: String], output: Output, command: Command?) throws {
    self.environment = environment
    self.output = output
    if let given = options.text(GlobalOptions.appGroup) {
      guard !given.isEmpty else {
        throw CommandLineError.usage("bad value '' for --app-group: give a folder (it is created if missing)", command)
      }
    } else if environment[AppGroup.environmentVariable]?.trimmingCharacters(in: .whitespacesAndNewlines) == "" {
      // Set but empty is a script's unset variable, not a wish for the real store.
      throw CommandLineError.usage(
        "\(AppGroup.environmentVariable) is set but empty: give a folder (it is created if missing), "
          + "or unset it for the default, \(Session.appGroup.defaultLocationText)", command)
    }
    appGroupDirectory = try Session.appGroup.resolve(argument: options.text(GlobalOptions.appGroup), environment: environment)
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: appGroupDirectory.path, isDirectory: &isDirectory), !isDirectory.boolValue {
      throw CommandLineError.usage(
        "the app group '\(appGroupDirectory.path)' is a file, not a folder: give a folder with --app-group or $BABYDASH_APP_GROUP",
        command)
    }
    if let given = options.text(GlobalOptions.syncFolder) ?? environment["BABYDASH_SYNC_FOLDER"] {
      guard !given.isEmpty else {
        let source = options.text(GlobalOptions.syncFolder) == nil ? "BABYDASH_SYNC_FOLDER is set but empty" : "bad value '' for --sync-folder"
        throw CommandLineError.usage("\(source): give a folder", command)
      }
      let folder = URL(fileURLWithPath: given, isDirectory: true).standardizedFileURL
      let source = options.text(GlobalOptions.syncFolder) == nil ? "BABYDASH_SYNC_FOLDER" : "--sync-folder"
      if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
        guard isDirectory.boolValue else {
          throw CommandLineError.data("the sync folder '\(folder.path)' (\(source)) is a file, not a folder: give a folder")
        }
      } else if command?.words != ["sync", "join"] && !options.has(GlobalOptions.create) {
        // A mistyped path would sync to nowhere while the other phone waits: never created by a read.
        throw CommandLineError.noInput(
          "no sync folder at '\(folder.path)' (\(source)): check the path; to start syncing there, run `babydash sync join` (or give --create)")
      }
      syncFolder = folder
    } else {
      syncFolder = nil
    }
    let storePath = AppGroup.storeURL(in: appGroupDirectory).path
    if FileManager.default.fileExists(atPath: storePath, isDirectory: &isDirectory), !isDirectory.boolValue {
      // Not "no babies yet", and not a write that blames permissions: name what stands there.
      throw CommandLineError.data(
        "a file is in the way: '\(storePath)' is a file where the store's folder belongs — move it aside "
          + "(it was not read or changed), or give another folder with --app-group")
    }
    storeExistedBefore = FileManager.default.fileExists(atPath: storePath)
    // A store whose cache (local/) is gone while its change files are there: opening it is a
    // rebuild of this device's own data, not news from another phone.
    cacheLostBefore = storeExistedBefore && !FileManager.default.fileExists(atPath: storePath + "/local")
      && !((try? FileManager.default.contentsOfDirectory(atPath: storePath + "/changes")) ?? []).isEmpty
    appGroupExistedBefore = FileManager.default.fileExists(atPath: appGroupDirectory.path)
    if let zoneName = options.text(GlobalOptions.timeZone) {
      guard let zone = TimeZone(identifier: zoneName) else {
        throw CommandLineError.usage(
          "bad value '\(zoneName)' for --time-zone: not an IANA time zone (e.g. Europe/Berlin)", command)
      }
      timeZone = zone
    } else {
      // The system's zone, with or without --now: a fixed "now" is a moment, not a place
      // (scripts that want UTC say --time-zone UTC or TZ=UTC). A TZ the system cannot read would
      // silently be UTC: refused, as a bad --time-zone is.
      if let tz = environment["TZ"].map({ $0.hasPrefix(":") ? String($0.dropFirst()) : $0 }), !tz.isEmpty,
        TimeZone(identifier: tz) == nil, TimeZone(abbreviation: tz) == nil
      {
        throw CommandLineError.usage("TZ='\(tz)' is not a time zone this system knows (e.g. Europe/Berlin): fix or unset TZ, or give --time-zone", command)
      }
      timeZone = TimeZone.current
    }
    if let text = options.text(GlobalOptions.now) {
      guard let parts = ISO8601.parseParts(text) else {
        throw CommandLineError.usage(
          "bad value '\(text)' for --now: expected ISO 8601, e.g. 2026-01-15T09:30:00Z", command)
      }
      do {
        now = try parts.offsetSeconds.map { parts.date(offsetSeconds: $0) } ?? TimeArgument.localDate(parts, in: timeZone, text: text)
      } catch let error as ArgumentValueError {
        throw CommandLineError.usage("bad value '\(text)' for --now: \(error.reason)", command)
      }
      // Every time typed later is read against "now": it must be a date the store can hold.
      guard ISO8601.isStorable(now) else {
        throw CommandLineError.usage(
          "bad value '\(text)' for --now: \(ISO8601.describe(now)) is outside the dates the store holds: "
            + ISO8601.storableRangeText, command)
      }
      nowIsFixed = true
    } else {
      now = Date()
      nowIsFixed = false
    }
  }

  /// The key under which the app group remembers the sync folder its store last synced through.
  static let lastSyncFolderKey = "babydash.lastSyncFolder"

  /// The sync folder this store last synced through, when none is given now: what every command
  /// warns about once, and `sync status` says.
  var forgottenSyncFolder: String? {
    guard syncFolder == nil, FileManager.default.fileExists(atPath: storeDirectory.path),
      let data = try? keyValueStore.data(forKey: Self.lastSyncFolderKey)
    else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

  /// Remembers the sync folder this store syncs through (commands that write, and `sync`).
  func rememberSyncFolder() throws {
    guard let syncFolder else { return }
    let path = Data(syncFolder.path.utf8)
    if try keyValueStore.data(forKey: Self.lastSyncFolderKey) != path { try keyValueStore.set(path, forKey: Self.lastSyncFolderKey) }
  }

  /// What opening the store rebuilt, in words: "rebuilt the cache from the change files (N
  /// objects)"; nil when it rebuilt nothing. A rebuild is no merge: nothing is credited to
  /// another phone.
  func rebuildNote() throws -> String? {
    guard let container = openedContainer, cacheLostBefore || container.cacheRebuildReason != nil else { return nil }
    let counts = try container.newBackgroundContext().contentCounts()
    let objects = counts.babies + counts.feeds + counts.diapers
    return "rebuilt the cache from the change files (\(objects) object\(objects == 1 ? "" : "s"))"
  }

  /// After a command whose commits are durable: what upkeep of the cache failed, if any.
  var housekeepingWarning: String? {
    guard let failures = openedContainer?.statistics.housekeepingFailures, failures > 0 else { return nil }
    return "the change is saved, but updating the local cache failed (\(failures)×); it is rebuilt from changes/ "
      + "at the next open — check the disk's free space and permissions"
  }

  var storeDirectory: URL { AppGroup.storeURL(in: appGroupDirectory) }

  /// Whether there is a store to read: its store.json, or anything in its folder (a store that
  /// lost its store.json is opened, and refused naming it, rather than shown empty), or other
  /// devices' changes in the sync folder: a phone that joins a family has only those, and its
  /// first look merges them rather than saying there is nothing.
  var storeExists: Bool {
    FileManager.default.fileExists(atPath: storeDirectory.appendingPathComponent("store.json").path)
      || !((try? FileManager.default.contentsOfDirectory(atPath: storeDirectory.path)) ?? []).isEmpty
      || syncFolder.map { !((try? FileManager.default.contentsOfDirectory(atPath: $0.path)) ?? []).filter { !$0.hasPrefix(".") }.isEmpty } == true
  }

  /// The store, created if it is not there yet: for commands that add data. Opening merges
  /// what other devices' copies wrote, unless `merging` is false (a status that only looks).
  func store(merging: Bool = true) throws -> StoreContainer {
    if let openedContainer { return openedContainer }
    let container = try StoreContainer.babyDashboard(inAppGroup: appGroupDirectory, options: storeOptions(syncFolder: syncFolder, merging: merging))
    openedContainer = container
    if container.statistics.changeFilesMerged > 0 { try followArrivals() }
    return container
  }

  /// This device's own change files (a snapshot) the store refuses as damaged, by path: the local
  /// cache still shows their data, until it is lost; then nothing opens. Said after every command
  /// that opened the store (``Babydash``), with the way out.
  func damagedOwnFiles() -> [String] {
    guard let container = openedContainer else { return [] }
    return Self.damagedOwnFiles(of: container)
  }

  /// The files of `container`'s own device that the store refuses as damaged when it reads
  /// them all (as `sync status` does), by path; empty when they read, or when reading fails for
  /// another reason (the command that needs them says that).
  static func damagedOwnFiles(of container: StoreContainer) -> [String] {
    do {
      _ = try container.syncStatus()
      return []
    } catch let error as StoreError where error.code == .damaged {
      return [error.path]
    } catch {
      return []
    }
  }

  /// How this session opens a store: its clock, device name, sync folder.
  func storeOptions(syncFolder: URL?, merging: Bool = true) -> StoreOptions {
    let fixed = now
    var options = StoreOptions(author: "babydash")
    if nowIsFixed { options.clock = { fixed } }
    options.syncFolder = syncFolder
    options.deviceName = environment["BABYDASH_DEVICE_NAME"] ?? ProcessInfo.processInfo.hostName
    options.watchesOtherProcesses = false  // one command, then exit: nothing to watch for
    options.mergesArrivalsOnOpen = merging
    // The test hook: this process acts as a newer program, reading and writing change-file format N.
    if let format = environment[Self.changeFormatVariable].flatMap(Int.init) { options.newestChangeFormat = format }
    return options
  }

  /// The test hook's variable (see ``storeOptions(syncFolder:merging:)``).
  static let changeFormatVariable = "BABYDASH_TEST_CHANGE_FORMAT"

  /// After a merge brought other devices' feeds: the cached last amounts follow the newest
  /// feeds, so that this device prefills and shows what the others do.
  func followArrivals() throws {
    try tracker().followNewestAmounts()
  }

  /// What the last merge of other devices' changes did, in a parent's words; nil when this
  /// command merged nothing a parent sees (or rebuilt the cache, which is no news).
  func mergeReportLine() throws -> String? {
    guard let container = openedContainer, container.cacheRebuildReason == nil, !cacheLostBefore, let report = container.lastMergeReport
    else { return nil }
    var babies: [UUID: String] = [:]
    for change in report.changes {
      if let baby = change.before as? BabyProfile { babies[baby.id] = baby.name }
    }
    for baby in try container.newBackgroundContext().fetch(FetchDescriptor<BabyProfile>()) { babies[baby.id] = baby.name }
    guard let line = MergeReportText.line(report, babies: babies, in: timeZone, now: now) else { return nil }
    // Two phones that each added "Ava" before they saw each other: said, with the way to join them.
    let added = Set(report.changes.filter { $0.kind == .inserted && $0.after is BabyProfile }.map(\.id))
    let clashes = added.isEmpty ? [] : BabyCommands.sameNameLines(try container.newBackgroundContext().babies(), only: added)
    return ([line] + clashes.map { $0 + "." }).joined(separator: " ")
  }

  /// The events dated ahead of now in `container` (of one baby, or all), each with its fix
  /// (``EventsAheadText``): what a device whose clock was wrong brought by sync.
  func eventsAheadLines(in container: StoreContainer, babyID: UUID? = nil) throws -> [String] {
    let context = container.newBackgroundContext()
    let ahead = try context.eventsAhead(of: now, babyID: babyID)
    guard !ahead.isEmpty else { return [] }
    let babies = Dictionary(try context.babies().map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    return EventsAheadText.lines(ahead, babies: babies, now: now, in: timeZone)
  }

  /// Says on standard error, as warnings, what of `babyID` is dated ahead of now.
  func warnAboutEventsAhead(of babyID: UUID) throws {
    for line in try eventsAheadLines(in: try store(), babyID: babyID) { try output.error("babydash: warning: \(line)") }
  }

  /// The store, for a command whose whole answer is the store's content (a screen, a list, a
  /// backup, a check): where there is none, the command is refused (66) rather than showing an
  /// empty family — a mistyped `--app-group` is no store, not an empty one, and a script that
  /// saves a dashboard or a backup must not take nothing for the family.
  func existingStore(nothingTo verb: String) throws -> StoreContainer {
    try refuseMissingStore(nothingTo: verb)
    return try store()
  }

  /// ``existingStore(nothingTo:)``'s refusal alone, for a command that opens the store itself.
  func refuseMissingStore(nothingTo verb: String) throws {
    guard storeExists || openedContainer != nil else {
      throw CommandLineError.noInput(
        "no store at '\(storeDirectory.path)': nothing to \(verb) — check --app-group or $BABYDASH_APP_GROUP, "
          + "or start one here with babydash baby add NAME")
    }
  }

  /// The store if it exists, else an empty one in memory: reading never creates files.
  func storeForReading() throws -> StoreContainer {
    if storeExists || openedContainer != nil { return try store() }
    return StoreContainer.inMemory(schema: BabyDashboardSchema.current)
  }

  var keyValueStore: FileKeyValueStore {
    FileKeyValueStore(appGroup: Session.appGroup, directory: appGroupDirectory)
  }

  var cache: LastFeedAmountCache { LastFeedAmountCache(store: keyValueStore) }

  /// The flags the app would obey here: the flags document, this device's switches, the
  /// built-in defaults, resolved for this device's cohort (``RolloutFlags``).
  func flags() throws -> FeatureFlags { try rolloutFlags(appVersion: nil).flags }

  var widgetSnapshotsURL: URL { AppGroup.widgetSnapshotsURL(in: appGroupDirectory) }

  /// The domain's door for writes, on the store (created if missing), with this session's now.
  func tracker() throws -> Tracker {
    let container = try store()
    try rememberSyncFolder()
    let moment = now
    return Tracker(context: container.viewContext, schema: container.schema, cache: cache, flags: try flags(), now: { moment })
  }

  /// After a failed command: removes the store if this command created it and it holds nothing,
  /// and the app-group folder if this command created it and it is empty, so that a refused
  /// command leaves no new file.
  func discardNewFiles() {
    let files = FileManager.default
    if !storeExistedBefore, let container = openedContainer {
      // Best effort after a failure: a store whose emptiness cannot be read is kept.
      let empty = (try? container.newBackgroundContext().contentCounts())?.isEmpty == true
      openedContainer = nil
      if empty { try? files.removeItem(at: storeDirectory) }
    }
    if !appGroupExistedBefore, (try? files.contentsOfDirectory(atPath: appGroupDirectory.path))?.isEmpty == true {
      try? files.removeItem(at: appGroupDirectory)
    }
  }
}
