import Foundation

/// A program a test runs as a child process and reads, as a person or a script would: its exit
/// status and both outputs. The environment a test changes is the child's, never the test's.
struct ChildProcess {
  /// How a child ended.
  struct Result: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  let process: Process
  let out: Pipe
  let err: Pipe

  /// The build products folder the tests run from: where `swift build` put the executables.
  static let productsFolder: URL = {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    // On Apple platforms the tests run inside <products>/X.xctest/Contents/MacOS/.
    while folder.pathComponents.contains(where: { $0.hasSuffix(".xctest") }) {
      folder.deleteLastPathComponent()
    }
    return folder
  }()

  /// The package's executable `name`, beside the tests in the build products folder.
  static func builtExecutable(_ name: String) -> URL {
    productsFolder.appendingPathComponent(name)
  }

  /// Starts `executable arguments…` with the test's environment merged with `environment`;
  /// standard input is empty. ``wait()`` for the result.
  ///
  /// - Throws: `CocoaError(.fileNoSuchFile)` when `executable` is not built, or what `Process.run()` throws.
  static func start(_ executable: URL, _ arguments: [String], environment extra: [String: String] = [:]) throws -> ChildProcess {
    guard FileManager.default.isExecutableFile(atPath: executable.path) else {
      throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: executable.path])
    }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return ChildProcess(process: process, out: out, err: err)
  }

  /// Waits for the end, reading both pipes to the end first so that a chatty child never blocks
  /// on a full pipe.
  func wait() -> Result {
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr, as: UTF8.self))
  }
}
