import Foundation
import Testing

/// Writing the result can fail too: a full disk behind `>` exits 74 with the system's reason,
/// and a pipe whose reader has gone (`| head -1`) exits 74 without a word — never a crash.
@Suite struct OutputFaultTests {
  let tool: BabydashProcess

  init() throws {
    tool = try BabydashProcess()
    #expect(try tool.run(at: "2026-11-26T08:00:00Z", ["baby", "add", "Mia"]).status == 0)
    #expect(try tool.run(at: "2026-11-26T08:00:00Z", ["feed", "log", "Mia", "--start", "07:00", "--end", "07:20", "--amount", "90ml"]).status == 0)
  }

  /// Runs `babydash arguments…` with standard output going to `stdout`; returns the status and
  /// standard error.
  private func run(_ arguments: [String], stdout: FileHandle) throws -> (status: Int32, stderr: String) {
    let process = Process()
    process.executableURL = BabydashProcess.executable
    process.arguments = ["--now", "2026-11-26T08:00:00Z"] + arguments
    process.environment = ProcessInfo.processInfo.environment.merging(["BABYDASH_APP_GROUP": tool.appGroup.path]) { $1 }
    let err = Pipe()
    process.standardOutput = stdout
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    // A signal (SIGILL from a trap, SIGPIPE) is not an exit status.
    #expect(process.terminationReason == .exit, "babydash \(arguments.joined(separator: " ")) was killed by a signal")
    return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
  }

  @Test(arguments: [["export"], ["history"], ["status"]])
  func aFullDiskExits74WithTheReason(arguments: [String]) throws {
    defer { tool.removeAll() }
    #if os(Linux)
      let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
      defer { try? full.close() }
      let result = try run(arguments, stdout: full)
      #expect(result.status == 74)
      #expect(result.stderr == "babydash: cannot write to standard output: No space left on device (the output is incomplete; if it goes to a file, free some space or choose another place)\n")
    #endif
  }

  @Test func aClosedPipeExits74Quietly() throws {
    defer { tool.removeAll() }
    // The reader is gone before the first write, as when `head -1` has read its line.
    let pipe = Pipe()
    try pipe.fileHandleForReading.close()
    let result = try run(["history"], stdout: pipe.fileHandleForWriting)
    #expect(result.status == 74)
    #expect(result.stderr == "")
  }
}
