import Foundation
import PlainStore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A running plainstore-stress process, its stdout read line by line as it comes.
final class MultiProcessChild {
  let arguments: [String]
  private let process: Process
  private let output = OutputBuffer()
  private let errors = OutputBuffer()
  private let drained = DispatchGroup()

  /// Bytes a reader thread appends to while the test reads them.
  final class OutputBuffer: Sendable {
    let data = StoreMutex(Data())
  }

  /// Starts `plainstore-stress <arguments>`.
  init(_ arguments: [String]) throws {
    self.arguments = arguments
    process = Process()
    process.executableURL = try Self.executableURL()
    process.arguments = arguments
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    try process.run()
    for (pipe, buffer) in [(stdout, output), (stderr, errors)] {
      drained.enter()
      let handle = pipe.fileHandleForReading
      let group = drained
      let thread = Thread {
        while true {
          let data = handle.availableData
          if data.isEmpty { break }
          buffer.data.withLock { $0.append(data) }
        }
        group.leave()
      }
      thread.start()
    }
  }

  var processIdentifier: Int32 { process.processIdentifier }

  /// The complete lines written so far.
  var lines: [String] {
    let text = String(decoding: output.data.withLock { $0 }, as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines.removeLast()  // the part after the last newline: empty, or a line still being written
    return lines
  }

  var errorText: String { String(decoding: errors.data.withLock { $0 }, as: UTF8.self) }

  /// Waits until a line starting with `prefix` appears or the process ends.
  func waitForLine(startingWith prefix: String, timeout: Duration = .seconds(60)) -> String? {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while clock.now < deadline {
      if let line = lines.first(where: { $0.hasPrefix(prefix) }) { return line }
      if !process.isRunning {
        // The process may have ended before the reader threads took its last output from the
        // pipes (a loaded machine): read to the end before the last look.
        _ = drained.wait(timeout: .now() + 30)
        return lines.first(where: { $0.hasPrefix(prefix) })
      }
      usleep(500)
    }
    return nil
  }

  func kill() {
    _ = Foundation.kill(process.processIdentifier, SIGKILL)
  }

  /// Waits for the process to end (killing it after `timeout`) and for its output to be read.
  /// - Returns: the exit status, or the signal that ended it as a negative number.
  @discardableResult
  func waitForExit(timeout: Duration = .seconds(300)) -> Int32 {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while process.isRunning && clock.now < deadline { usleep(1000) }
    if process.isRunning {
      Issue.record("plainstore-stress \(arguments.joined(separator: " ")) still ran after \(timeout); killed it")
      kill()
    }
    process.waitUntilExit()
    if drained.wait(timeout: .now() + 30) == .timedOut {
      Issue.record("the output of plainstore-stress \(arguments.joined(separator: " ")) did not end")
    }
    return process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus
  }

  /// Runs the child to its end and requires success.
  static func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> MultiProcessChild {
    let child = try MultiProcessChild(arguments)
    let status = child.waitForExit()
    try #require(status == 0, "plainstore-stress \(arguments.joined(separator: " ")) exited with \(status): \(child.errorText)", sourceLocation: sourceLocation)
    return child
  }

  /// The child executable: built beside the test bundle because the test target depends on it.
  static func executableURL() throws -> URL {
    let name = "plainstore-stress"
    var folders: [URL] = []
    if let explicit = ProcessInfo.processInfo.environment["PLAINSTORE_STRESS"] {
      let url = URL(fileURLWithPath: explicit)
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    folders.append(Bundle.main.bundleURL)  // Linux: the build products folder
    folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent())
    for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
      folders.append(bundle.bundleURL.deletingLastPathComponent())  // Apple: beside the .xctest bundle
    }
    let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    folders.append(package.appendingPathComponent(".build/debug"))
    let candidates = folders.map { $0.appendingPathComponent(name) }
    if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) { return found }
    throw ChildNotFound(
      description: "the test helper '\(name)' is not built; looked in \(candidates.map(\.path).joined(separator: ", ")) — run `swift build --build-tests` (the test target depends on it) or set PLAINSTORE_STRESS to its path.")
  }

  struct ChildNotFound: Error, CustomStringConvertible {
    var description: String
  }
}
