import BabyDashboard
import Foundation
import PlainStore

/// One merge's time, and whether it folded only the arrived files (`arrivalOnlyMerges`) or
/// every file (`fullFolds`): the figure says which road it took.
struct MergeFigure {
  var ms: Double
  var arrivalOnly: Bool

  func fields(_ name: String) -> [(String, String)] {
    [("\(name)_ms", BenchNumber.json(ms)), ("\(name)_arrival_only", arrivalOnly ? "true" : "false")]
  }
}

extension JoinBench {
  /// Syncs `store`, timed, with the road its merge took.
  func merged(_ store: StoreContainer) throws -> MergeFigure {
    let before = store.statistics
    let ms = try Timing.milliseconds { _ = try store.sync() }
    let after = store.statistics
    return MergeFigure(ms: ms, arrivalOnly: after.arrivalOnlyMerges > before.arrivalOnlyMerges && after.fullFolds == before.fullFolds)
  }

  /// The arrivals that are not newer than what the phone holds: the same field edited on both
  /// phones before either saw the other's, an edit of a feed the phone deleted, a delete of a
  /// feed the phone edited, and a late phone's hour (30 changes stamped before the phone's own
  /// last 30 commits, some of the same feeds' fields). Each on the open stores of `run()`, but the
  /// first crossing, merged by a store opened for it.
  func hardArrivals(
    writer: URL, phone: URL, profileID: UUID, _ context: StoreContext, _ phoneContext: StoreContext, _ reading: StoreContainer
  ) throws -> [(name: String, merge: MergeFigure)] {
    let now = BenchHistory.now
    // The feeds these cases edit: written on the writer, merged by the phone.
    var feeds: [UUID] = []
    for index in 0..<40 {
      let feed = FeedSession(
        uuid: BenchHistory.id(9, index), profileID: profileID, startTime: now.addingTimeInterval(20_000 + Double(index) * 600),
        endTime: now.addingTimeInterval(20_300 + Double(index) * 600), amountValue: 80, amountUnitSymbol: "mL")
      context.insert(feed)
      feeds.append(feed.uuid)
    }
    try context.save()
    try carry(from: writer, to: phone)
    _ = try reading.sync()
    var figures: [(String, MergeFigure)] = []
    // The memo of one feed, edited on both phones before either saw the other's edit: twice,
    // the first the first merge of a store opened since (as every CLI command is), which reads
    // the stamps the cache keeps (see `WriteStamps+File.swift`); the second on the open store.
    for (round, name) in ["crossing_one_field_first_since_open_merge", "crossing_one_field_merge"].enumerated() {
      _ = try context.edit(FeedSession.self, id: feeds[round]) { $0.memoText = "#writer" }
      try context.save()
      _ = try phoneContext.edit(FeedSession.self, id: feeds[round]) { $0.memoText = "#phone" }
      try phoneContext.save()
      let store = round == 0 ? try StoreContainer.babyDashboard(inAppGroup: phone, options: StoreOptions(watchesOtherProcesses: false)) : reading
      try carry(from: writer, to: phone)
      figures.append((name, try merged(store)))
    }
    // An edit of a feed the phone deleted before it arrived.
    _ = try context.edit(FeedSession.self, id: feeds[2]) { $0.memoText = "#edited" }
    try context.save()
    phoneContext.delete(FeedSession.self, id: feeds[2])
    try phoneContext.save()
    try carry(from: writer, to: phone)
    figures.append(("edit_of_deleted_merge", try merged(reading)))
    // A delete of a feed the phone edited after the delete was made.
    context.delete(FeedSession.self, id: feeds[3])
    try context.save()
    _ = try phoneContext.edit(FeedSession.self, id: feeds[3]) { $0.memoText = "#kept?" }
    try phoneContext.save()
    try carry(from: writer, to: phone)
    figures.append(("delete_of_edited_merge", try merged(reading)))
    // A late phone's hour: 30 commits of the writer, then 30 of the phone, then they meet.
    for index in 0..<30 {
      _ = try context.edit(FeedSession.self, id: feeds[4 + index]) { $0.memoText = "#late \(index)" }
      try context.save()
    }
    for index in 0..<30 {
      if index.isMultiple(of: 2) {
        _ = try phoneContext.edit(FeedSession.self, id: feeds[4 + index]) { $0.memoText = "#phone \(index)" }
      } else {
        _ = try phoneContext.edit(FeedSession.self, id: feeds[4 + index]) { $0.amountValue = 120 }
      }
      try phoneContext.save()
    }
    try carry(from: writer, to: phone)
    figures.append(("late_hour_merge", try merged(reading)))
    return figures
  }
}
