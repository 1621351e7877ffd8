import BabyDashboard
import Foundation
import PlainStore

/// A phone that joins a family: the writer's store of `size` objects, its change files carried
/// into a fresh phone's sync folder. Prints one JSON line: the phone's first open (the join: it
/// merges every file), then the dashboard opened on the phone beside the same on the writer, and
/// one arrival: the writer's local commit of one feed beside the phone's merge of its file, and
/// the merge of an arrival written before the phone's own latest change, and of one written
/// before the phone's own edit of another field of the same feed, and of one that comes after a
/// conflict copy of an older file was met, and those that are not newer than what the phone
/// holds (`hardArrivals`), each with whether it merged the arrived files alone —
/// measured in this process, on open stores, and again each in a process of its own
/// (`JoinStep`), for the peak RSS of each step beside that of an open that does nothing.
@MainActor
struct JoinBench {
  let size: Int
  let scratch: URL

  func run() throws -> String {
    let folder = scratch.appendingPathComponent("join-\(size)")
    let bench = StoreBench(history: BenchHistory(objects: size), runs: 3, commits: 1)
    let writer = folder.appendingPathComponent("writer")
    let phone = folder.appendingPathComponent("phone")
    _ = try bench.bulkInsert(into: writer)
    try carry(from: writer, to: phone)
    let join = try Timing.milliseconds { _ = try StoreContainer.babyDashboard(inAppGroup: phone) }
    let stampsPath = AppGroup.storeURL(in: phone).appendingPathComponent("local/stamps").path
    let stampsBytes = (try? FileManager.default.attributesOfItem(atPath: stampsPath)[.size] as? Int) ?? 0
    let writerDashboard = try bench.openDashboard(writer)
    let phoneDashboard = try bench.openDashboard(phone)
    // One arrival: the writer's commit, the phone's merge of its file, each on an open store.
    let writing = try StoreContainer.babyDashboard(inAppGroup: writer, options: StoreOptions(watchesOtherProcesses: false))
    let reading = try StoreContainer.babyDashboard(inAppGroup: phone, options: StoreOptions(watchesOtherProcesses: false))
    let context = writing.newBackgroundContext()
    let feed = FeedSession(
      uuid: BenchHistory.id(8, 0), profileID: bench.history.babies[0].id, startTime: BenchHistory.now.addingTimeInterval(3_600),
      endTime: BenchHistory.now.addingTimeInterval(4_500), amountValue: 90, amountUnitSymbol: "mL")
    let commit = try Timing.milliseconds {
      context.insert(feed)
      try context.save()
    }
    try carry(from: writer, to: phone)
    let merge = try merged(reading)
    // An arrival that interleaves: the writer logs a feed, the phone a diaper change before the
    // feed's file arrives (two parents within one sync delay); then the phone merges it. Its
    // start is not the one the child steps' feed takes below, which would merge into it.
    let later = FeedSession(
      uuid: BenchHistory.id(8, 1), profileID: bench.history.babies[0].id, startTime: BenchHistory.now.addingTimeInterval(10_800),
      endTime: BenchHistory.now.addingTimeInterval(11_700), amountValue: 100, amountUnitSymbol: "mL")
    context.insert(later)
    try context.save()
    let phoneContext = reading.newBackgroundContext()
    phoneContext.insert(
      DiaperChange(uuid: BenchHistory.id(8, 2), profileID: bench.history.babies[1].id, timestamp: BenchHistory.now.addingTimeInterval(10_900), type: .pee))
    try phoneContext.save()
    try carry(from: writer, to: phone)
    let interleavedMerge = try merged(reading)
    // Crossed edits of one feed: the writer notes its memo, the phone then sets its end before
    // the memo's file arrives, then merges it (other fields than its own edit's: folded alone).
    _ = try context.edit(FeedSession.self, id: later.uuid) { $0.memoText = "#crossed" }
    try context.save()
    _ = try phoneContext.edit(FeedSession.self, id: later.uuid) { $0.endTime = BenchHistory.now.addingTimeInterval(12_000) }
    try phoneContext.save()
    try carry(from: writer, to: phone)
    let crossedMerge = try merged(reading)
    // A conflict copy beside one of the writer's files (the same bytes: an engine that met the
    // file twice) stays there for good; the next arrival is still merged alone.
    try conflictCopy(ofFileOf: writer, in: phone)
    _ = try reading.sync()
    context.insert(
      DiaperChange(uuid: BenchHistory.id(8, 3), profileID: bench.history.babies[0].id, timestamp: BenchHistory.now.addingTimeInterval(12_600), type: .poo))
    try context.save()
    try carry(from: writer, to: phone)
    let afterConflictCopyMerge = try merged(reading)
    let hard = try hardArrivals(writer: writer, phone: phone, profileID: bench.history.babies[0].id, context, phoneContext, reading)
    // Each step again in a process of its own: a second phone joins, the writer logs a feed,
    // the first phone merges it.
    let secondPhone = folder.appendingPathComponent("second-phone")
    try carry(from: writer, to: secondPhone)
    let joinStep = try JoinStep.inChild("join", secondPhone)
    let openStep = try JoinStep.inChild("open", phone)
    let commitStep = try JoinStep.inChild("commit", writer)
    try carry(from: writer, to: phone)
    let mergeStep = try JoinStep.inChild("merge", phone)
    let fields: [(String, String)] = [
      ("objects", String(size)),
      ("join_first_open_ms", BenchNumber.json(join)),
      ("join_stamps_file_bytes", String(stampsBytes)),
      ("open_dashboard_writer_ms", BenchNumber.json(writerDashboard)),
      ("open_dashboard_joined_ms", BenchNumber.json(phoneDashboard)),
      ("local_commit_ms", BenchNumber.json(commit)),
    ]
    var merges: [(String, String)] = merge.fields("one_arrival_merge")
    merges += interleavedMerge.fields("interleaved_arrival_merge")
    merges += crossedMerge.fields("crossed_edit_merge")
    merges += afterConflictCopyMerge.fields("arrival_after_conflict_copy_merge")
    for (name, figure) in hard { merges += figure.fields(name) }
    let steps: [(String, String)] = [
      ("process_join_ms", BenchNumber.json(joinStep.ms)),
      ("process_join_rss_mb", BenchNumber.json(joinStep.rss)),
      ("process_open_rss_mb", BenchNumber.json(openStep.rss)),
      ("process_commit_ms", BenchNumber.json(commitStep.ms)),
      ("process_commit_rss_mb", BenchNumber.json(commitStep.rss)),
      ("process_merge_ms", BenchNumber.json(mergeStep.ms)),
      ("process_merge_rss_mb", BenchNumber.json(mergeStep.rss)),
      ("peak_rss_mb", BenchNumber.json(Timing.peakResidentMegabytes())),
    ]
    return "{" + (fields + merges + steps).map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
  }

  /// Puts beside the writer's newest change file, in the phone's folder, a conflict copy of the
  /// same bytes named as Syncthing names one.
  private func conflictCopy(ofFileOf writer: URL, in phone: URL) throws {
    let files = FileManager.default
    let target = AppGroup.storeURL(in: phone).appendingPathComponent("changes")
    let device = try String(contentsOf: AppGroup.storeURL(in: writer).appendingPathComponent("device-id"), encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let folder = target.appendingPathComponent(device)
    let newest = try files.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") && $0.first?.isNumber == true }.max()!
    try files.copyItem(
      at: folder.appendingPathComponent(newest),
      to: folder.appendingPathComponent(newest.replacingOccurrences(of: ".json", with: ".sync-conflict-20261127-090000-BENCH01.json")))
  }

  /// Copies the change files the phone lacks, as a sync engine would.
  func carry(from writer: URL, to phone: URL) throws {
    let files = FileManager.default
    let source = AppGroup.storeURL(in: writer).appendingPathComponent("changes")
    let target = AppGroup.storeURL(in: phone).appendingPathComponent("changes")
    for device in try files.contentsOfDirectory(atPath: source.path) where !device.hasPrefix(".") {
      let into = target.appendingPathComponent(device)
      try files.createDirectory(at: into, withIntermediateDirectories: true)
      for name in try files.contentsOfDirectory(atPath: source.appendingPathComponent(device).path)
      where !name.hasPrefix(".") && !files.fileExists(atPath: into.appendingPathComponent(name).path) {
        try files.copyItem(at: source.appendingPathComponent(device).appendingPathComponent(name), to: into.appendingPathComponent(name))
      }
    }
  }
}
