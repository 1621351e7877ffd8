import Foundation
import PlainStore

/// `open`: opens the store — which migrates a format-1 store, merges the change files that
/// arrived and rebuilds a damaged cache — then prints `opened <objects>`. The crash tests kill
/// it at random moments of that work; `phase open`, printed as it starts, tells them a kill
/// landed in it rather than in the process's start-up. `--schema 2` opens it with the schema version 2, which
/// migrates a version-1 store. `--list` then prints every item, sorted: the power-loss explorer
/// compares what each state opens to with what it must hold.
struct OpenMode {
  let arguments: StressArguments

  func run() throws {
    var options = StoreOptions(author: "open", watchesOtherProcesses: false)
    options.phaseObserver = { StressOutput.phase($0) }  // each step of the open's work, for the kill suites
    StressOutput.phase("open")
    switch try arguments.value(StressOptions.schema, default: 1) {
    case 1:
      let container = try StoreContainer.file(at: arguments.store, schema: StressSchema.v1, options: options)
      let items = try container.newBackgroundContext().fetch(FetchDescriptor<StressItem>())
      StressOutput.line("opened \(items.count)")
      if arguments.has(StressOptions.list) { list(items.map { ($0.id, $0.writer, $0.batch, $0.part) }) }
    case 2:
      let container = try StoreContainer.file(at: arguments.store, schema: StressSchema.v2, options: options)
      let items = try container.newBackgroundContext().fetch(FetchDescriptor<StressItemV2>())
      StressOutput.line("opened \(items.count)")
      if arguments.has(StressOptions.list) { list(items.map { ($0.id, $0.author + " " + $0.note, $0.batch, $0.part) }) }
    case let other:
      throw StressUsageError("--schema wants 1 or 2, not \(other)")
    }
  }

  /// One line per item, sorted, written in one piece.
  private func list(_ items: [(UUID, String, Int, Int)]) {
    let lines = items.map { "item \($0.0.uuidString) \($0.1) \($0.2) \($0.3)" }.sorted()
    guard !lines.isEmpty else { return }
    StressOutput.block(lines.joined(separator: "\n") + "\n")
  }
}
