import Foundation

/// A program the benchmark runs and reads: this executable in one of its child modes, or the
/// peer. Standard error passes through, so the child's progress shows.
struct ChildProcess {
  let process: Process
  let output: Pipe
  let description: String

  /// This executable, as the kernel knows it (argv[0] may be relative or a `swift run` name):
  /// Foundation asks the system on every platform (`/proc/self/exe` on Linux), symlinks resolved.
  static var currentExecutable: URL { Bundle.main.executableURL! }

  static func start(_ arguments: [String], executable: URL = currentExecutable) throws -> ChildProcess {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    return ChildProcess(process: process, output: output, description: ([executable.path] + arguments).joined(separator: " "))
  }

  /// Runs to the end and returns standard output; a non-zero exit is an error naming the command.
  static func run(_ arguments: [String], executable: URL = currentExecutable) throws -> String {
    try start(arguments, executable: executable).finish()
  }

  func finish() throws -> String {
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw BenchRunError("'\(description)' exited with status \(process.terminationStatus)")
    }
    return String(decoding: data, as: UTF8.self)
  }
}

/// A benchmark step failed: what ran and how.
struct BenchRunError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
