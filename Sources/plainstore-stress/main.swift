import Foundation

// The child process of PlainStore's multi-process and crash tests, and the throughput driver.
// Test-only: the app never runs it.

do {
  let arguments = try StressArguments(Array(CommandLine.arguments.dropFirst()))
  switch arguments.mode {
  case "write": try WriterMode(arguments: arguments).run()
  case "bench": try BenchMode(arguments: arguments).run()
  case "reader": try ReaderMode(arguments: arguments).run()
  case "compact": try CompactMode(arguments: arguments).run()
  case "cloud-sync": try CloudSyncMode(arguments: arguments).run()
  default: try OpenMode(arguments: arguments).run()
  }
} catch let error as StressUsageError {
  // The README tells people to run it: its help must work like any tool's.
  if error.description.isEmpty {
    print(StressOptions.usage)
    exit(0)
  }
  StressOutput.fail("\(error)\n\(StressOptions.usage)")
} catch {
  StressOutput.fail("\(error)")
}
