import BabyDashboard
import BabyDashboardTesting
import Foundation
import PlainStore
import PlainStoreTesting
import Testing

/// The judge of the store: seeded runs of two and three devices (a store copied onto a new
/// device adds one, up to four), each a real file container, doing random operations (babies
/// added with shared names, renamed, removed; feeds and diapers logged, edited with values set
/// and cleared, moved onto another feed's start, moved off a key another device has just logged
/// a feed at, unseen, deleted; change compaction; a lost `local/`; a copied store — one device's
/// whole app group copied onto a new device or over another, as a restored backup or a cloned
/// phone, after which both copies write under the same device id until they notice), with their
/// change files carried between them by a fake engine (``DifferentialEngine``) at random moments,
/// in random order, partly, twice and as conflict copies, of the same bytes or of another version
/// written under the same name. In one seed of ten, the second device's feed edits, deletes,
/// merges and compactions are `babydash` processes.
///
/// After every step, the acting device's cache (and a copy's) equals a rebuild from its files (a
/// copy of its store without `local/`); after everything is exchanged, every device holds the
/// same data, and — in runs without a copied store — the data one device shows that makes
/// every save of the run in stamp order (``DifferentialOracle``): the fold means what a save
/// means.
///
/// `DIFFERENTIAL_SEEDS=10000 swift test --filter DifferentialSyncTests` runs more seeds;
/// `DIFFERENTIAL_SEED=N` runs one.
@Suite struct DifferentialSyncTests {
  static let environment = ProcessInfo.processInfo.environment
  static let seedCount = environment["DIFFERENTIAL_SEEDS"].flatMap(Int.init) ?? 640
  static let parts = 4
  /// Seeds past the usual count that once failed (found by a longer local run), run every time
  /// in part 0: 2620, a copy's local log naming changes the original compacted away.
  static let regressionSeeds = [2620]

  @Test(arguments: 0..<parts)
  func everyCacheIsTheFoldOfItsFilesAndEveryDeviceEndsTheSame(part: Int) async throws {
    // Minutes of blocking work: on a thread of its own, or it holds one of the few threads every
    // test's async work shares, and a test waiting for a notification meanwhile times out.
    let report = try await onOwnThread(computing: true) { Self.run(part: part) }
    #expect(report.failures.isEmpty, "\(report.failures.joined(separator: "\n"))")
    print(
      "DifferentialSyncTests part \(part): \(report.seeds) seeds (\(report.checkedAgainstOneDevice) held to one device making their saves in stamp order, which refused \(report.refusedByOneDevice) of them), \(report.steps) steps, merges of the arrived files only: \(report.merges.arrivalOnly), full folds: \(report.merges.full); stores copied: \(report.copies), deleted ids refused: \(report.refused), edits and deletes of merged-away ids: \(report.staleAddressed), names written twice with different contents: \(report.engine.conflicts), conflict copies of another version: \(report.engine.divergentCopies), of the same bytes: \(report.engine.repeatedCopies), files delivered twice: \(report.engine.deliveredTwice), truncated first: \(report.engine.truncated)"
    )
    // Both roads into the cache are judged, and copies and conflicts happen: a run where one
    // never happened proves nothing of it. (A part that stopped at its failures ran too few.)
    if report.seeds >= 20 && report.failures.isEmpty {
      #expect(report.merges.arrivalOnly >= report.steps / 25 && report.merges.full >= report.steps / 25)
      let engine = report.engine
      #expect(report.copies >= report.seeds / 4 && engine.conflicts > 0 && engine.divergentCopies > 0 && engine.deliveredTwice > 0)
      #expect(report.refused > 0, "no insert under a deleted id was refused")
      #expect(report.staleAddressed > 0, "no edit or delete was addressed to a merged-away id")
      #expect(report.checkedAgainstOneDevice >= report.seeds / 3, "too few seeds without a copied store were held to one device")
      #expect(report.refusedByOneDevice > 0, "one device never had to refuse a save: no delete met a later edit")
    }
  }

  /// What one part's seeds did.
  struct PartReport: Sendable {
    var seeds = 0
    var failures: [String] = []
    var steps = 0
    var merges = (arrivalOnly: 0, full: 0)
    var copies = 0
    var refused = 0
    var staleAddressed = 0
    var engine = DifferentialEngine.Counts()
    /// Seeds held to one device making their saves in stamp order, and the saves it refused.
    var checkedAgainstOneDevice = 0
    var refusedByOneDevice = 0
    /// Seeds with one device on today's format in which a newer program said it reads format 3.
    var newerInFamily = 0
  }

  /// Versions side by side (#55 item 8): device0 runs today's program, which reads change-file
  /// format 2 only, and the others a newer one that reads and could write format 3
  /// (`StoreOptions.newestChangeFormat`). device0 stays active, so every device keeps writing
  /// format 2 — every file of every `changes/` says so at the end — and all converge as ever.
  /// `DIFFERENTIAL_OLDER_SEEDS=N` runs more.
  @Test func withOneDeviceOnTodaysFormat() async throws {
    let count = Self.environment["DIFFERENTIAL_OLDER_SEEDS"].flatMap(Int.init) ?? 50
    let report = try await onOwnThread(computing: true) { Self.run(seeds: Array(0..<count), olderProgram: true) }
    #expect(report.failures.isEmpty, "\(report.failures.joined(separator: "\n"))")
    #expect(report.newerInFamily >= report.seeds * 3 / 4, "too few runs had a newer program that could have written format 3")
    print(
      "DifferentialSyncTests with one device on today's format: \(report.seeds) seeds (a newer program in \(report.newerInFamily)), \(report.steps) steps, stores copied: \(report.copies)")
  }

  /// Runs one part's seeds (every `parts`-th), stopping at the third failure.
  static func run(part: Int) -> PartReport {
    let seeds: [Int] =
      if let one = environment["DIFFERENTIAL_SEED"].flatMap(Int.init) { part == 0 ? [one] : [] } else {
        Array(stride(from: part, to: seedCount, by: parts)) + (part == 0 ? regressionSeeds.filter { $0 >= seedCount } : [])
      }
    return run(seeds: seeds)
  }

  /// Runs seeds, stopping at the third failure; `olderProgram`: device0 runs today's program and
  /// the others a newer one; `throughCloudKit`: the devices exchange through a simulated CloudKit;
  /// `media`: where the stores are, and how their files travel.
  static func run(seeds: [Int], olderProgram: Bool = false, throughCloudKit: Bool = false, media: DifferentialRun.Media = .files) -> PartReport {
    var report = PartReport(seeds: seeds.count)
    for seed in seeds {
      var run = DifferentialRun(
        seed: UInt64(seed), olderProgram: olderProgram, cloud: throughCloudKit ? SimulatedCloudKit(requestLimit: 9, fetchBatchSize: 7) : nil,
        media: media)
      do {
        try run.run()
      } catch {
        report.failures.append("seed \(seed), after step \(run.steps) (\(run.log.suffix(6).joined(separator: "; "))): \(error)")
        if report.failures.count >= 3 { break }
      }
      // One seed run on its own tells its steps.
      if environment["DIFFERENTIAL_SEED"] != nil { print(run.log.enumerated().map { "step \($0 + 1): \($1)" }.joined(separator: "\n")) }
      report.steps += run.steps
      report.merges.arrivalOnly += run.merges.arrivalOnly
      report.merges.full += run.merges.full
      report.copies += run.copies
      report.refused += run.refused
      report.staleAddressed += run.staleAddressed
      report.engine += run.engine.counts
      if run.checkedAgainstOneDevice { report.checkedAgainstOneDevice += 1 }
      report.refusedByOneDevice += run.refusedByOneDevice
      if run.newerInFamily { report.newerInFamily += 1 }
    }
    return report
  }
}

/// What a run found wrong.
struct DifferentialFailure: Error, CustomStringConvertible {
  var description: String
}

/// One seeded run of several devices.
struct DifferentialRun {
  /// Where the devices keep their stores, and how their files travel.
  enum Media: Sendable {
    /// Folders on disk, their files carried by the fake engine (``DifferentialEngine``).
    case files
    /// In-memory containers, their files carried by a ``MemorySyncSpace`` at each sync.
    case memory
    /// Every other device in memory, the rest folders on disk, all syncing through one space.
    case mixed
  }
  let seed: UInt64
  let media: Media
  /// The space that carries the files, unless the fake engine does (`files`).
  let space: MemorySyncSpace?
  var random: DifferentialRandom
  var devices: [DifferentialDevice] = []
  let scratch: URL
  var steps = 0
  var log: [String] = []
  /// Merges each road made, over every container of the run.
  var merges = (arrivalOnly: 0, full: 0)
  /// Carries the files between the devices.
  var engine = DifferentialEngine()
  /// Carries them instead, when set: each device's own CloudKit carrier, and its syncs.
  let cloud: SimulatedCloudKit?
  /// Each device's iCloud account, with a cloud: the owner's ("mum") or the other parent's, who
  /// reaches the owner's zone through a share (see `DifferentialRun+CloudKit`).
  var accounts: [String] = []
  /// Every save, to be made again on one device in stamp order.
  var oracle = DifferentialOracle()
  /// Whether the run was held to what one device making its saves shows, and how many of those
  /// saves that device refused (an edit of a feed already deleted, say).
  var checkedAgainstOneDevice = false
  var refusedByOneDevice = 0
  /// App groups copied onto another device.
  var copies = 0
  /// The simulated wall clock: a few minutes a step, each device off it by its own skew.
  var now = Date(timeIntervalSince1970: 1_773_100_000)
  var nextID = 1
  /// Feeds deleted on some device: ids every device keeps let go once it has the delete.
  var deletedFeeds: [UUID] = []
  /// Inserts under a deleted id that were refused.
  var refused = 0
  /// Each feed as a device first read it: what a context that read it long ago still holds.
  var firstSeen: [UUID: FeedSession] = [:]
  /// Whether device0 runs today's program (change-file format 2) and the others a newer one (3).
  let olderProgram: Bool
  /// Whether, so, a device that reads format 3 said so in `changes/`.
  var newerInFamily = false
  /// Edits and deletes addressed to a feed merged into another, which reached the survivor.
  var staleAddressed = 0
  static let names = ["Ava", "Mia", "Leo", "ava"]
  /// Few starts, so that devices log feeds on the same unique key.
  var starts: [Date] { (0..<4).map { Date(timeIntervalSince1970: 1_773_090_000 + Double($0) * 1_800) } }

  init(seed: UInt64, olderProgram: Bool = false, cloud: SimulatedCloudKit? = nil, media: Media = .files) {
    self.seed = seed
    self.media = media
    space = media == .files ? nil : MemorySyncSpace()
    self.olderProgram = olderProgram
    self.cloud = cloud
    random = DifferentialRandom(seed: seed)
    let base = FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
    scratch = base.appendingPathComponent("differential-\(seed)-\(UUID().uuidString)")
  }

  mutating func run() throws {
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    // One seed run on its own keeps its folders, to be looked at.
    defer { if DifferentialSyncTests.environment["DIFFERENTIAL_SEED"] == nil { try? FileManager.default.removeItem(at: scratch) } }
    let count = 2 + Int(seed % 2)
    for index in 0..<count {
      accounts.append(index % 2 == 0 ? "mum" : "dad")
      // In one seed of ten, the second device's edits, deletes, merges and compactions are
      // `babydash` processes, as the app's other processes (the tool, an extension) would be.
      devices.append(
        try DifferentialDevice(
          index: index, root: scratch.appendingPathComponent("device\(index)/BabyDashboard.store"),
          viaBabydash: media == .files && !olderProgram && index == 1 && seed % 10 == 0, reads: olderProgram && index > 0 ? 3 : 2,
          carrier: carrier(account: accounts[index]), inMemory: media == .memory || (media == .mixed && index % 2 == 1)))
    }
    if olderProgram {
      // The older device is part of the family before anyone writes: its device.json (reads 2)
      // reaches every device.
      let context = devices[0].container.newBackgroundContext(author: "device0")
      let baby = BabyProfile(id: freshID(), name: Self.names[0], createdAt: now)
      context.insert(baby)
      try save(context, on: 0, .insert(baby))
      log.append("device0 (today's program) adds baby \(baby.name) \(short(baby.id))")
      try exchange(partly: false)
      for device in devices { _ = try device.container.sync() }
    }
    let stepCount = 10 + random.next(below: 30)
    for _ in 0..<stepCount {
      steps += 1
      now += Double(60 + random.next(below: 600))
      let device = random.next(below: devices.count)
      devices[device].clock.set(now + Double(random.next(below: 7)) - 3)
      try act(on: device)
      try checkCacheIsTheFold(device)
      if random.next(below: 3) == 0 { try exchange(partly: true) }
    }
    // Everything is exchanged, until merging writes nothing new (a copy that noticed takes a
    // new id, writes its `device.json` and re-publishes what the other copy's snapshot covers)
    // and the engine has nothing left to carry.
    for round in 1... {
      let spaceBefore = space.map(Self.contents)
      let moved = try exchange(partly: false) || space.map(Self.contents) != spaceBefore
      var wrote = false
      for index in devices.indices {
        let before = devices[index].changeFiles()
        _ = try devices[index].container.sync()
        wrote = wrote || devices[index].changeFiles() != before
        try checkCacheIsTheFold(index)
      }
      if !moved && !wrote && space.map(Self.contents) == spaceBefore { break }
      guard round < 6 else { throw DifferentialFailure(description: "the exchange never settled: a merge writes new files at every round") }
    }
    for device in devices {
      merges.arrivalOnly += device.merges.arrivalOnly
      merges.full += device.merges.full
    }
    // A copy that met the other copy's different change under one of its sequences took a new
    // id: none writes on under an id two copies wrote under.
    for (index, device) in devices.enumerated() {
      if let id = device.deviceID, engine.divergentIDs(on: device).contains(id) {
        throw DifferentialFailure(
          description: "after a full exchange device\(index) still writes under \(id), under which two copies of the store wrote different changes of one sequence")
      }
    }
    if olderProgram { newerInFamily = try checkEveryFileIsTodaysFormat() }
    let exports = try devices.map { try $0.export() }
    for index in exports.indices.dropFirst() where exports[index] != exports[0] {
      throw DifferentialFailure(
        description: "after a full exchange device\(index) holds other data than device0:\n\(exports[index])\n---\n\(exports[0])")
    }
    // What they hold is what one device shows that makes every save, in stamp order. Not
    // after a copy of a store: two copies write under one device id, sequence and clock until
    // they notice, and what one of them wrote there is re-published under its new id, so
    // "stamp order" no longer names one order.
    guard copies == 0 else { return }
    checkedAgainstOneDevice = true
    let oneDevice = try oracle.replay(in: scratch.appendingPathComponent("oracle"))
    refusedByOneDevice = oracle.refused
    guard exports[0] == oneDevice else {
      // One seed run on its own tells everything: both texts and the saves in stamp order.
      let whole = DifferentialSyncTests.environment["DIFFERENTIAL_SEED"] != nil
      throw DifferentialFailure(
        description: "after a full exchange the devices show other data than one device making their saves in stamp order "
          + "(\(oracle.refused) of them refused):\n" + oracle.differences(devices: exports[0], oneDevice: oneDevice, whole: whole))
    }
  }

  // MARK: Operations

  mutating func freshID() -> UUID {
    nextID += 1
    return UUID(uuidString: String(format: "%08x-0000-4000-8000-%012x", Int(seed % 0xffff_ffff), nextID))!
  }

  mutating func act(on index: Int) throws {
    let container = devices[index].container
    // As every command of the app does: what has arrived is merged before anything is read —
    // a merge the judge checks like any step's (seed 1799 went wrong here, unseen until a
    // later save).
    if try container.sync() != nil { try checkCacheIsTheFold(index) }
    let context = container.newBackgroundContext(author: "device\(index)")
    // Ordered by id too: many share a start, and the pick must not hang on the cache's order.
    let babies = try context.fetch(FetchDescriptor<BabyProfile>()).sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
    let feeds = try context.fetch(FetchDescriptor<FeedSession>()).sorted { ($0.startTime, $0.id.uuidString) < ($1.startTime, $1.id.uuidString) }
    let diapers = try context.fetch(FetchDescriptor<DiaperChange>()).sorted { ($0.timestamp, $0.id.uuidString) < ($1.timestamp, $1.id.uuidString) }
    for feed in feeds where firstSeen[feed.uuid] == nil { firstSeen[feed.uuid] = feed }
    let mergedAway = context.mergedIDs(FeedSession.self).filter { firstSeen[$0.key] != nil }.sorted { $0.key.uuidString < $1.key.uuidString }
    let roll = random.next(below: 100)
    let operation: String
    let made: DifferentialOracle.Operation
    switch roll {
    case 0..<10:
      let baby = BabyProfile(id: freshID(), name: Self.names[random.next(below: Self.names.count)], createdAt: now)
      context.insert(baby)
      made = .insert(baby)
      operation = "adds baby \(baby.name) \(short(baby.id))"
    case 10..<14 where !babies.isEmpty:
      let original = babies[random.next(below: babies.count)]
      var baby = original
      baby.name = Self.names[random.next(below: Self.names.count)] + "\(random.next(below: 3))"
      context.update(baby)
      made = .update(baby, from: original)
      operation = "renames \(short(baby.id)) to \(baby.name)"
    case 14..<18 where !babies.isEmpty:
      let baby = babies[random.next(below: babies.count)]
      context.delete(baby)
      made = .delete(BabyProfile.self, baby.id)
      operation = "removes baby \(short(baby.id))"
    case 18..<40:
      let baby = babies.isEmpty || random.next(below: 5) == 0 ? nil : babies[random.next(below: babies.count)].id
      let start = starts[random.next(below: starts.count)]
      let ended = random.next(below: 2) == 0
      let feed = FeedSession(
        uuid: freshID(), profileID: baby, startTime: start, endTime: ended ? start + 1_200 : nil,
        amountValue: random.next(below: 2) == 0 ? Double(60 + 10 * random.next(below: 8)) : nil,
        amountUnitSymbol: "mL", memoText: random.next(below: 2) == 0 ? "#memo\(random.next(below: 5))" : nil)
      context.insert(feed)
      made = .insert(feed)
      firstSeen[feed.uuid] = feed
      operation = "logs feed \(short(feed.uuid)) for \(baby.map(short) ?? "nobody") at \(Int(start.timeIntervalSince1970) % 10_000)"
    case 40..<46 where !mergedAway.isEmpty, 97..<100 where !mergedAway.isEmpty:
      let (alias, survivor) = mergedAway[random.next(below: mergedAway.count)]
      return try addressMergedAway(on: index, alias, survivor: survivor, context)
    case 40..<62 where !feeds.isEmpty:
      var feed = feeds[random.next(below: feeds.count)]
      var original = feed
      let what: String
      let choice = random.next(below: 9)
      switch choice {
      case 0:
        feed.memoText = "#edit\(random.next(below: 9))"
        what = "memo \(feed.memoText!)"
      case 1:
        feed.memoText = nil
        what = "memo cleared"
      case 2:
        feed.amountValue = Double(50 + 10 * random.next(below: 9))
        feed.amountUnitSymbol = "mL"
        what = "amount \(feed.amountValue!)"
      case 3:
        feed.amountValue = nil
        feed.amountUnitSymbol = nil
        what = "amount cleared"
      case 4:
        feed.endTime = feed.startTime + Double(600 * (1 + random.next(below: 4)))
        what = "end set"
      case 5:
        feed.endTime = nil
        what = "end cleared"
      case 6:
        feed.startTime = starts[random.next(below: starts.count)]
        feed.endTime = nil
        what = "start moved to \(Int(feed.startTime.timeIntervalSince1970) % 10_000)"
      case 7:
        feed.profileID = babies.isEmpty ? nil : babies[random.next(below: babies.count)].id
        what = "baby \(feed.profileID.map(short) ?? "none")"
      default:  // there and back, in two saves: writes that leave the feed as it was
        var there = feed
        there.memoText = feed.memoText == "#there" ? nil : "#there"
        context.update(there, from: original)
        try save(context, on: index, .update(there, from: original))
        log.append("device\(index) edits feed \(short(feed.uuid)): memo \(there.memoText ?? "cleared"), to be put back")
        original = there
        what = "memo back to \(feed.memoText ?? "none")"
      }
      let asTyped = [0: ["--memo", feed.memoText ?? ""], 1: ["--memo", ""], 4: ["--end", feed.endTime.map(ISO8601.format) ?? ""]]
      if devices[index].viaBabydash, let options = asTyped[choice] {
        log.append("device\(index) edits feed \(short(feed.uuid)): \(what), with babydash")
        try babydash(index, ["feed", "edit", feed.uuid.uuidString] + options + ["--yes"], saving: .update(feed, from: original))
        return
      }
      context.update(feed, from: original)
      made = .update(feed, from: original)
      operation = "edits feed \(short(feed.uuid)): \(what)"
    case 62..<70 where !feeds.isEmpty:
      let feed = feeds[random.next(below: feeds.count)]
      deletedFeeds.append(feed.uuid)
      if devices[index].viaBabydash {
        log.append("device\(index) deletes feed \(short(feed.uuid)), with babydash")
        try babydash(index, ["feed", "delete", feed.uuid.uuidString], saving: .delete(FeedSession.self, feed.uuid))
        return
      }
      context.delete(feed)
      made = .delete(FeedSession.self, feed.uuid)
      operation = "deletes feed \(short(feed.uuid))"
    case 70..<78:
      let baby = babies.isEmpty ? nil : babies[random.next(below: babies.count)].id
      let diaper = DiaperChange(
        uuid: freshID(), profileID: baby, timestamp: starts[random.next(below: starts.count)], type: random.next(below: 2) == 0 ? .pee : .poo)
      context.insert(diaper)
      made = .insert(diaper)
      operation = "logs diaper \(short(diaper.uuid))"
    case 78..<82 where !diapers.isEmpty:
      let diaper = diapers[random.next(below: diapers.count)]
      context.delete(diaper)
      made = .delete(DiaperChange.self, diaper.uuid)
      operation = "deletes diaper \(short(diaper.uuid))"
    case 82..<86:
      log.append("device\(index) compacts its changes" + (devices[index].viaBabydash ? ", with babydash" : ""))
      if devices[index].viaBabydash { return try babydash(index, ["sync", "compact"]) }
      _ = try container.compactChanges()
      return
    case 86..<89 where !devices[index].inMemory:
      log.append("device\(index) loses local/")
      try devices[index].loseLocalFolder()
      return
    case 89..<92 where space == nil:
      return try copyStore(from: index)
    case 92..<95 where !feeds.isEmpty:
      return try crossKeys(on: index, feeds)
    case 95..<97 where !deletedFeeds.isEmpty:
      // A deleted feed logged again under its id (a restore, say): refused once this device has
      // the delete, which it keeps for good; before, an edit the delete wins over.
      let id = deletedFeeds[random.next(below: deletedFeeds.count)]
      let again = FeedSession(
        uuid: id, profileID: nil, startTime: starts[random.next(below: starts.count)], endTime: nil, amountValue: 80, amountUnitSymbol: "mL",
        memoText: "#again")
      context.insert(again)
      do {
        try save(context, on: index, .insert(again))
        log.append("device\(index) logs deleted feed \(short(id)) again, unaware of its delete")
      } catch let error as StoreError where error.code == .notFound {
        log.append("device\(index) logs deleted feed \(short(id)) again: refused")
        refused += 1
      }
      return
    default:
      log.append("device\(index) syncs" + (devices[index].viaBabydash ? ", with babydash" : ""))
      if devices[index].viaBabydash { return try babydash(index, ["sync", "now"]) }
      _ = try container.sync()
      return
    }
    log.append("device\(index) \(operation)")
    try save(context, on: index, made)
  }

  func short(_ id: UUID) -> String { String(id.uuidString.suffix(4)) }

  /// A context that read a feed before it merged into another (here, or on another device)
  /// edits its memo or deletes it, by its old id — or `babydash` is given that id: the edit or
  /// the delete reaches the survivor, as it does from every other device.
  mutating func addressMergedAway(on index: Int, _ alias: UUID, survivor: UUID, _ context: StoreContext) throws {
    let stale = firstSeen[alias]!
    let memo = stale.memoText == "#stale" ? "#stale2" : "#stale"
    let deleting = random.next(below: 3) == 0
    let what = deleting ? "deletes" : "edits the memo of"
    log.append("device\(index) \(what) feed \(short(alias)), merged into \(short(survivor))" + (devices[index].viaBabydash ? ", with babydash" : ""))
    var edited = stale
    edited.memoText = memo
    let made: DifferentialOracle.Operation = deleting ? .delete(FeedSession.self, alias) : .update(edited, from: stale)
    if devices[index].viaBabydash {
      try babydash(
        index, deleting ? ["feed", "delete", alias.uuidString] : ["feed", "edit", alias.uuidString, "--memo", memo, "--yes"], saving: made)
    } else {
      if deleting {
        context.delete(FeedSession.self, id: alias)
      } else {
        context.update(edited, from: stale)
      }
      let saved = try save(context, on: index, made)
      guard saved.id(of: FeedSession.self, alias) == survivor else {
        throw DifferentialFailure(description: "saving the feed merged into \(survivor) names \(saved.id(of: FeedSession.self, alias)) as where it went")
      }
    }
    let shown = try devices[index].container.newBackgroundContext().object(FeedSession.self, id: survivor)
    guard deleting ? shown == nil : shown?.memoText == memo else {
      throw DifferentialFailure(description: "device\(index) \(what) feed \(alias) by its old id, and its survivor \(survivor) shows \(shown.map { "\($0)" } ?? "nothing")")
    }
    if deleting { deletedFeeds.append(survivor) }
    staleAddressed += 1
  }

  /// Another device, having merged all it holds but not this one's latest, logs a feed at the
  /// unique key of one of this device's `feeds` (one whose baby it knows); then this device
  /// moves that feed's start. When the other feed arrives here it is older than the move: it
  /// met the feed on the old key, and the fold merges the two before the move — what an arrival
  /// folded alone onto this cache, where the key is already left, would miss.
  mutating func crossKeys(on index: Int, _ feeds: [FeedSession]) throws {
    let others = devices.indices.filter { $0 != index }
    let other = others[random.next(below: others.count)]
    devices[other].clock.set(now - Double(1 + random.next(below: 30)))
    _ = try devices[other].container.sync()
    try checkCacheIsTheFold(other)
    let theirContext = devices[other].container.newBackgroundContext(author: "device\(other)")
    let known = Set(try theirContext.fetch(FetchDescriptor<BabyProfile>()).map(\.id))
    let candidates = feeds.filter { $0.profileID.map(known.contains) ?? true }
    guard !candidates.isEmpty else { return log.append("device\(other) knows none of device\(index)'s feeds' babies: no keys crossed") }
    let feed = candidates[random.next(below: candidates.count)]
    let theirs = FeedSession(
      uuid: freshID(), profileID: feed.profileID, startTime: feed.startTime, endTime: nil, amountValue: 70, amountUnitSymbol: "mL",
      memoText: "#crossed")
    theirContext.insert(theirs)
    log.append("device\(other) logs feed \(short(theirs.uuid)) at feed \(short(feed.uuid))'s key, unaware of device\(index)'s latest")
    try save(theirContext, on: other, .insert(theirs))
    try checkCacheIsTheFold(other)
    var moved = feed
    let elsewhere = starts.filter { $0 != feed.startTime }
    moved.startTime = elsewhere[random.next(below: elsewhere.count)]
    moved.endTime = nil
    let context = devices[index].container.newBackgroundContext(author: "device\(index)")
    context.update(moved, from: feed)
    log.append("device\(index) edits feed \(short(feed.uuid)): start moved to \(Int(moved.startTime.timeIntervalSince1970) % 10_000)")
    try save(context, on: index, .update(moved, from: feed))
  }

  /// The built `babydash`, beside the tests in the build products folder.
  static let babydashExecutable: URL = {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while folder.pathComponents.contains(where: { $0.hasSuffix(".xctest") }) { folder.deleteLastPathComponent() }
    return folder.appendingPathComponent("babydash")
  }()

  /// Runs `babydash` on a device's store to save `operation`, and records the save for the
  /// oracle.
  mutating func babydash(_ index: Int, _ arguments: [String], saving operation: DifferentialOracle.Operation) throws {
    let before = Set(devices[index].ownChangeFiles())
    try babydash(index, arguments)
    try record(operation, on: index, since: before)
  }

  /// Saves `context` on device `index`, and records the save for the oracle.
  @discardableResult
  mutating func save(_ context: StoreContext, on index: Int, _ operation: DifferentialOracle.Operation) throws -> SaveResult {
    let before = Set(devices[index].ownChangeFiles())
    let saved = try context.save()
    try record(operation, on: index, since: before)
    return saved
  }

  /// Records a save with the stamp of the change file it wrote; a save that wrote none
  /// changed nothing.
  mutating func record(_ operation: DifferentialOracle.Operation, on index: Int, since before: Set<String>) throws {
    let written = devices[index].ownChangeFiles().filter { !before.contains($0) }
    guard let name = written.max(), let file = devices[index].read(name) else { return }
    guard let document = try JSONSerialization.jsonObject(with: file) as? [String: Any], let object = document["change"] as? [String: Any],
      let hlc = object["hlc"] as? String,
      let device = object["device"] as? String, let sequence = object["sequence"] as? Int
    else { throw DifferentialFailure(description: "device\(index)'s change file \(name) has no stamp") }
    let stamp = hlc + "." + device + "." + String(repeating: "0", count: max(0, 12 - String(sequence).count)) + String(sequence)
    oracle.saves.append(DifferentialOracle.Save(stamp: stamp, device: index, operation: operation))
  }

  /// Runs `babydash` on a device's store at the device's time, as a second process of its
  /// app would; a refusal fails the run with what the tool said.
  func babydash(_ index: Int, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = Self.babydashExecutable
    process.arguments =
      ["--app-group", devices[index].root.deletingLastPathComponent().path, "--now", ISO8601.format(devices[index].clock.now)] + arguments
    process.environment = ProcessInfo.processInfo.environment.merging(["TZ": "UTC"]) { $1 }
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw DifferentialFailure(description: "babydash \(arguments.joined(separator: " ")) exited with \(process.terminationStatus): \(said)")
    }
    // The app's own container hears of the tool's commit (it does not watch in these runs).
    _ = try devices[index].container.refresh()
  }

  /// A device's whole app group (its store with `local/`, and its sync folder's files) is
  /// copied onto a new device or over another one, as a restored backup or a cloned phone: both
  /// copies go on writing under the device id they hold, until one of them notices.
  mutating func copyStore(from source: Int) throws {
    // Through a cloud, only over a device of the same account: a store remembers the account
    // it synced with, and another's is never merged into it.
    let others = devices.indices.filter { $0 != source && (cloud == nil || accounts[$0] == accounts[source]) }
    guard devices.count < 4 || !others.isEmpty else { return }
    let target = devices.count < 4 && (others.isEmpty || random.next(below: 2) == 0) ? devices.count : others[random.next(below: others.count)]
    copies += 1
    if target == devices.count {
      log.append("device\(source)'s app group is copied onto a new device\(target)")
      let root = scratch.appendingPathComponent("device\(target)/BabyDashboard.store")
      try FileManager.default.copyItem(at: devices[source].root.deletingLastPathComponent(), to: root.deletingLastPathComponent())
      // The same program as the copied one's: two copies that write under one id run one version.
      accounts.append(accounts[source])
      devices.append(try DifferentialDevice(index: target, root: root, viaBabydash: false, reads: devices[source].reads, carrier: carrier(account: accounts[source])))
    } else {
      log.append("device\(source)'s app group is copied over device\(target)'s")
      try devices[target].replace(with: devices[source].root, reads: devices[source].reads)
    }
    devices[target].clock.set(devices[source].clock.now)
    engine.copied(from: source, onto: target)
    try checkCacheIsTheFold(target)
    // In one copy of three, both copies log a diaper and compact before either hears of the
    // other: two snapshots of one number under the shared id, each holding a change the other
    // does not.
    guard random.next(below: 3) == 0 else { return }
    for index in [source, target] {
      let context = devices[index].container.newBackgroundContext(author: "device\(index)")
      let diaper = DiaperChange(uuid: freshID(), profileID: nil, timestamp: starts[random.next(below: starts.count)], type: .pee)
      context.insert(diaper)
      try save(context, on: index, .insert(diaper))
      _ = try devices[index].container.compactChanges()
      log.append("device\(index) logs diaper \(short(diaper.uuid)) and compacts its changes")
      try checkCacheIsTheFold(index)
    }
  }

  /// One exchange of the fake engine; `partly`, a random part of it. Returns whether any
  /// device's files changed.
  @discardableResult
  mutating func exchange(partly: Bool) throws -> Bool {
    guard space == nil else { return false }  // a space carries files at each sync, not between
    guard let cloud else { return try engine.exchange(devices, partly: partly, now: now, random: &random) }
    return try exchange(through: cloud, partly: partly)
  }

  /// Every file a space holds, by name.
  static func contents(of space: MemorySyncSpace) -> [String: Data] {
    Dictionary(uniqueKeysWithValues: space.fileNames.map { ($0, space.contents(of: $0) ?? Data()) })
  }

  // MARK: Checks

  /// With device0 on today's program and active all along, every change file and snapshot on
  /// every device is format 2. Returns whether a newer program (one that says it reads 3) is in
  /// the family: not when every newer device was replaced by a copy of device0 before it wrote.
  func checkEveryFileIsTodaysFormat() throws -> Bool {
    var newerPublished = false
    for device in devices {
      for relative in device.changeFiles() {
        let text = String(decoding: device.read(relative) ?? Data(), as: UTF8.self)
        if relative.hasSuffix("/device.json") || relative.contains("/reads-") || relative.contains("/name-") {
          newerPublished = newerPublished || text.contains("\"reads\":3")
          continue
        }
        guard let format = text.firstMatch(of: /"formatVersion":(\d+)/)?.output.1, format == "2" else {
          throw DifferentialFailure(description: "\(relative) on device\(device.index) is not written in format 2, with device0 reading only it: \(text.prefix(200))")
        }
      }
    }
    return newerPublished
  }

  /// The device's cache, as its container shows it, equals what a rebuild from its files shows.
  func checkCacheIsTheFold(_ index: Int) throws {
    let shown = try devices[index].export()
    let rebuilt = try devices[index].exportOfRebuild(in: scratch.appendingPathComponent("rebuild"))
    guard shown == rebuilt else {
      throw DifferentialFailure(description: "device\(index)'s cache differs from a rebuild of its files:\ncache:\n\(shown)\nrebuild:\n\(rebuilt)")
    }
  }
}

/// One device of a run: its store folder and its open container.
struct DifferentialDevice {
  let index: Int
  let root: URL
  let clock = DifferentialClock()
  var container: StoreContainer
  /// Whether some of its operations are `babydash` processes.
  let viaBabydash: Bool
  /// The newest change-file format its program reads (`StoreOptions.newestChangeFormat`).
  var reads: Int
  /// Merges made by the containers this device has closed.
  var closedMerges = (arrivalOnly: 0, full: 0)
  /// Whether its store is an in-memory container (`root` then names no folder).
  let inMemory: Bool

  /// Merges made by this device's containers, by road.
  var merges: (arrivalOnly: Int, full: Int) {
    (closedMerges.arrivalOnly + container.statistics.arrivalOnlyMerges, closedMerges.full + container.statistics.fullFolds)
  }

  /// What carries its files: a folder the fake engine copies, a simulated CloudKit, or a space.
  let carrier: SyncCarrier

  init(index: Int, root: URL, viaBabydash: Bool, reads: Int = 2, carrier: SyncCarrier = .folder, inMemory: Bool = false) throws {
    self.index = index
    self.root = root
    self.viaBabydash = viaBabydash
    self.reads = reads
    self.carrier = carrier
    self.inMemory = inMemory
    if !inMemory { try FileManager.default.createDirectory(at: root.deletingLastPathComponent(), withIntermediateDirectories: true) }
    container = try Self.open(root, clock: clock, index: index, reads: reads, carrier: carrier, inMemory: inMemory)
  }

  static func open(
    _ root: URL, clock: DifferentialClock, index: Int, reads: Int, carrier: SyncCarrier, inMemory: Bool = false
  ) throws -> StoreContainer {
    var options = StoreOptions(
      author: "device\(index)", clock: { clock.now }, watchesOtherProcesses: false, deviceName: "device\(index)",
      changeCompactionThreshold: 12)
    options.newestChangeFormat = reads
    options.carrier = carrier
    if inMemory { return StoreContainer.inMemory(schema: BabyDashboardSchema.current, options: options) }
    return try StoreContainer.file(at: root, schema: BabyDashboardSchema.current, options: options)
  }

  /// The store's folder, on disk or in memory.
  var storeFolder: URL { StoreFolderReader.folder(of: container) }
  var changes: URL { storeFolder.appendingPathComponent("changes") }

  /// The change files this device wrote under the id it writes under now.
  func ownChangeFiles() -> [String] {
    guard let id = deviceID else { return [] }
    return changeFiles().filter { $0.hasPrefix(id + "/") && ChangeFileNames.isChange($0.dropFirst(id.count + 1)) }
  }

  /// Every file of `changes/`, as `<device>/<name>`, temporary files left out.
  func changeFiles() -> [String] {
    let changes = changes
    return StoreFolderReader.list(changes).flatMap { folder in
      StoreFolderReader.list(changes.appendingPathComponent(folder)).map { folder + "/" + $0 }
    }
  }

  func has(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: changes.appendingPathComponent(relative).path) }
  func read(_ relative: String) -> Data? { StoreFolderReader.read(changes.appendingPathComponent(relative)) }

  /// The device id this copy of the store writes under, as its `device-id` holds it.
  var deviceID: String? {
    StoreFolderReader.read(storeFolder.appendingPathComponent("device-id")).map {
      String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
  }

  /// Writes a file as an engine does: to a temporary name, then renamed into place.
  func put(_ data: Data, at relative: String) throws {
    let url = changes.appendingPathComponent(relative)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let temporary = url.deletingLastPathComponent().appendingPathComponent(".syncthing.\(url.lastPathComponent).tmp")
    try data.write(to: temporary)
    if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
    try FileManager.default.moveItem(at: temporary, to: url)
  }

  func remove(_ relative: String) throws {
    try FileManager.default.removeItem(at: changes.appendingPathComponent(relative))
  }

  /// The app loses its cache: the container goes, `local/` with it, and the store opens again.
  mutating func loseLocalFolder() throws {
    closedMerges.arrivalOnly += container.statistics.arrivalOnlyMerges
    closedMerges.full += container.statistics.fullFolds
    container = StoreContainer.inMemory(schema: BabyDashboardSchema.current)  // lets the old one go first
    try FileManager.default.removeItem(at: root.appendingPathComponent("local"))
    container = try Self.open(root, clock: clock, index: index, reads: reads, carrier: carrier)
  }

  /// Another device's app group takes this one's place: the container goes, the folder is
  /// replaced by a copy of `source`'s, and the store opens again.
  mutating func replace(with source: URL, reads: Int) throws {
    self.reads = reads
    closedMerges.arrivalOnly += container.statistics.arrivalOnlyMerges
    closedMerges.full += container.statistics.fullFolds
    container = StoreContainer.inMemory(schema: BabyDashboardSchema.current)  // lets the old one go first
    let group = root.deletingLastPathComponent()
    try FileManager.default.removeItem(at: group)
    try FileManager.default.copyItem(at: source.deletingLastPathComponent(), to: group)
    container = try Self.open(root, clock: clock, index: index, reads: reads, carrier: carrier)
  }

  /// Every object, as one deterministic text.
  func export() throws -> String {
    try DifferentialExport.text(of: container)
  }

  /// What a fresh copy of this store without its cache shows.
  func exportOfRebuild(in folder: URL) throws -> String {
    if inMemory {  // rebuilt on its own medium: in memory
      let rebuilt = try StoreFolderReader.rebuiltInMemory(
        from: storeFolder, options: StoreOptions(clock: { clock.now }, watchesOtherProcesses: false), schema: BabyDashboardSchema.current)
      return try DifferentialExport.text(of: rebuilt)
    }
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let copy = folder.appendingPathComponent("BabyDashboard.store")
    try StoreFolderReader.copyTruth(of: storeFolder, to: copy)
    let rebuilt = try StoreContainer.file(
      at: copy, schema: BabyDashboardSchema.current, options: StoreOptions(clock: { clock.now }, watchesOtherProcesses: false))
    return try DifferentialExport.text(of: rebuilt)
  }
}

/// A device's wall clock, set by the run.
final class DifferentialClock: Sendable {
  private let seconds = StoreMutex<Double>(1_773_100_000)
  var now: Date { Date(timeIntervalSince1970: seconds.withLock { $0 }) }
  func set(_ date: Date) { seconds.withLock { $0 = date.timeIntervalSince1970 } }
}

/// Every object of a store as one text, ordered by id, each property written out.
enum DifferentialExport {
  static func text(of container: StoreContainer) throws -> String {
    let context = container.newBackgroundContext()
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .secondsSince1970
    func lines<E: Entity>(_ type: E.Type) throws -> [String] {
      try context.fetch(FetchDescriptor<E>()).sorted { $0.id.uuidString < $1.id.uuidString }.map {
        "\(E.entityName) " + String(decoding: try encoder.encode($0), as: UTF8.self)
      }
    }
    // Where an edit addressed to a merged-away id goes is part of what a device shows.
    func merged<E: Entity>(_ type: E.Type) -> [String] {
      context.mergedIDs(E.self).sorted { $0.key.uuidString < $1.key.uuidString }.map { "\(E.entityName) \($0.key) merged into \($0.value)" }
    }
    return try (lines(BabyProfile.self) + lines(FeedSession.self) + lines(DiaperChange.self) + merged(FeedSession.self) + merged(DiaperChange.self))
      .joined(separator: "\n")
  }
}

/// SplitMix64: the same sequence for a seed on every machine.
struct DifferentialRandom: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func next(below bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }
}
