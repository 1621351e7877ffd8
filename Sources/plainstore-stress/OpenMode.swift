import Foundation
import PlainStore

/// `open`: opens the store — which migrates a format-1 store, merges the change files that
/// arrived and rebuilds a damaged cache — then prints `opened <objects>`. The crash tests kill
/// it at random moments of that work.
struct OpenMode {
  let arguments: StressArguments

  func run() throws {
    let container = try StoreContainer.file(
      at: arguments.store, schema: StressSchema.v1, options: StoreOptions(author: "open", watchesOtherProcesses: false))
    StressOutput.line("opened \(try container.newBackgroundContext().fetchCount(FetchDescriptor<StressItem>()))")
  }
}
