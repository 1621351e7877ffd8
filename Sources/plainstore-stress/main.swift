import Foundation

// The child process of PlainStore's multi-process and crash tests, and the throughput driver.
// Test-only: the app never runs it.

// The README tells people to run it: its help must work like any tool's.
if CommandLine.arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
  print(StressUsageError.usage)
  exit(0)
}

do {
  let arguments = try StressArguments(Array(CommandLine.arguments.dropFirst()))
  switch arguments.mode {
  case "write": try WriterMode(arguments: arguments).run()
  case "bench": try BenchMode(arguments: arguments).run()
  case "reader": try ReaderMode(arguments: arguments).run()
  case "open": try OpenMode(arguments: arguments).run()
  case "compact": try CompactMode(arguments: arguments).run()
  default: throw StressUsageError("unknown mode '\(arguments.mode)'")
  }
} catch let error as StressUsageError {
  StressOutput.fail("\(error)\n\(StressUsageError.usage)")
} catch {
  StressOutput.fail("\(error)")
}
