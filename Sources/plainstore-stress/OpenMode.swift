import Foundation
import PlainStore

/// `open`: opens the store — which migrates a format-1 store, merges the change files that
/// arrived and rebuilds a damaged cache — then prints `opened <objects>`. The crash tests kill
/// it at random moments of that work; `phase open`, printed as it starts, tells them a kill
/// landed in it rather than in the process's start-up. `--schema 2` opens it with the schema version 2, which
/// migrates a version-1 store.
struct OpenMode {
  let arguments: StressArguments

  func run() throws {
    let options = StoreOptions(author: "open", watchesOtherProcesses: false)
    StressOutput.phase("open")
    switch try arguments.value(StressOptions.schema, default: 1) {
    case 1:
      let container = try StoreContainer.file(at: arguments.store, schema: StressSchema.v1, options: options)
      StressOutput.line("opened \(try container.newBackgroundContext().fetchCount(FetchDescriptor<StressItem>()))")
    case 2:
      let container = try StoreContainer.file(at: arguments.store, schema: StressSchema.v2, options: options)
      StressOutput.line("opened \(try container.newBackgroundContext().fetchCount(FetchDescriptor<StressItemV2>()))")
    case let other:
      throw StressUsageError("--schema wants 1 or 2, not \(other)")
    }
  }
}
