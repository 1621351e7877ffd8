import Foundation

/// Runs a program to its end (killed after `timeout` seconds), its output collected in files:
/// the explorer's recorded run and each state's open.
struct ToolRun: Sendable {
  var status: Int32
  var stdout: String
  var stderr: String

  struct Failed: Error, CustomStringConvertible {
    var description: String
  }

  static func run(
    _ executable: URL, _ arguments: [String], scratch: URL, environment extra: [String: String] = [:], timeout: Double = 120
  ) throws -> ToolRun {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
    let name = UUID().uuidString
    let outURL = scratch.appendingPathComponent(".\(name).out")
    let errURL = scratch.appendingPathComponent(".\(name).err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    defer {
      try? FileManager.default.removeItem(at: outURL)
      try? FileManager.default.removeItem(at: errURL)
    }
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    let ended = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in ended.signal() }
    try process.run()
    try? out.close()
    try? err.close()
    if ended.wait(timeout: .now() + timeout) == .timedOut {
      process.terminate()
      ended.wait()
      throw Failed(description: "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) still ran after \(Int(timeout)) s")
    }
    return ToolRun(
      status: process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus,
      stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
  }
}
