import Foundation
import PlainStore

/// `write`: commits `commits` batches of `parts` items (0: until killed), printing
/// `committed <batch> <sequence> <ids>` as soon as each save has returned; with
/// `--expect-total`, waits until it sees that many items and prints `digest <count> <hex>`.
struct WriterMode {
  let arguments: StressArguments

  func run() throws {
    let writer = try arguments.value(StressOptions.writer, default: "w\(getpid())")
    let commits = try arguments.value(StressOptions.commits, default: 100)
    let parts = try arguments.value(StressOptions.parts, default: 1)
    let expectTotal = try arguments.value(StressOptions.expectTotal, default: -1)
    let options = StoreOptions(
      author: writer,
      lockTimeout: .seconds(60),
      compactionThreshold: try arguments.value(StressOptions.threshold, default: 64),
      logRetention: try arguments.value(StressOptions.retention, default: 256))
    StressOutput.phase("open")
    let container = try StoreContainer.file(at: arguments.store, schema: StressSchema.v1, options: options)
    StressOutput.line("ready \(container.currentToken.sequence)")
    let context = container.newBackgroundContext()
    var batch = 0
    while commits == 0 || batch < commits {
      let items = (0..<parts).map { part in
        StressItem(id: UUID(), writer: writer, batch: batch, part: part, at: StressSchema.date(batch: batch))
      }
      for item in items { context.insert(item) }
      guard let transaction = try context.save().transaction else {
        StressOutput.fail("batch \(batch) of \(writer) committed nothing")
      }
      StressOutput.line("committed \(batch) \(transaction.sequence) \(items.map(\.id.uuidString).joined(separator: ","))")
      batch += 1
    }
    if expectTotal >= 0 { try printDigest(container, context, expectTotal: expectTotal) }
  }

  /// Waits (refreshing) until every writer's items are visible, then fingerprints the view.
  private func printDigest(_ container: StoreContainer, _ context: StoreContext, expectTotal: Int) throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(120))
    var count = try context.fetchCount(FetchDescriptor<StressItem>())
    while count < expectTotal {
      guard clock.now < deadline else {
        // Say what this process sees, so that a failure can be told apart from a slow machine.
        let items = try context.fetch(FetchDescriptor<StressItem>())
        let byWriter = Dictionary(grouping: items, by: \.writer).mapValues(\.count).sorted { $0.key < $1.key }
        let logs = (try? FileManager.default.contentsOfDirectory(atPath: arguments.store.appendingPathComponent("local/log").path)) ?? []
        StressOutput.fail(
          "saw only \(count) of \(expectTotal) items after 120 s (token \(container.currentToken.sequence); "
            + "by writer \(byWriter.map { "\($0.key)=\($0.value)" }.joined(separator: " ")); log streams \(logs.sorted().joined(separator: " ")))")
      }
      Thread.sleep(forTimeInterval: 0.01)
      try container.refresh()
      count = try context.fetchCount(FetchDescriptor<StressItem>())
    }
    let items = try context.fetch(FetchDescriptor<StressItem>())
    StressOutput.line("digest \(items.count) \(StressDigest.of(items))")
  }
}
