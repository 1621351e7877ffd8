import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `babydash` (or any program) under a deadline, its output in files rather than pipes, so
/// that many run at once from plain threads and a hang is a result, never a stuck test.
struct TimedProcess {
  struct Result: Sendable {
    /// The exit status; nil when the deadline passed (the child was killed: a hang).
    var status: Int32?
    /// True when the child ended on a signal (a trap is a crash).
    var signalled: Bool
    var stdout: String
    var stderr: String
  }

  /// Runs `executable arguments…` with `environment` added to this process's, and waits at most
  /// `timeout` seconds. Only the child this call started is ever killed.
  static func run(
    _ executable: URL, _ arguments: [String], environment extra: [String: String], scratch: URL, timeout: Double = 30
  ) throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment.merge(extra) { $1 }
    process.environment = environment
    let name = UUID().uuidString
    let outURL = scratch.appendingPathComponent("\(name).out")
    let errURL = scratch.appendingPathComponent("\(name).err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    defer {
      try? out.close()
      try? err.close()
      try? FileManager.default.removeItem(at: outURL)
      try? FileManager.default.removeItem(at: errURL)
    }
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    let ended = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in ended.signal() }
    try process.run()
    var timedOut = false
    if ended.wait(timeout: .now() + timeout) == .timedOut {
      timedOut = true
      kill(process.processIdentifier, SIGKILL)
      ended.wait()
    }
    let stdout = String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self)
    let stderr = String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
    return Result(
      status: timedOut ? nil : process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
      stdout: stdout, stderr: stderr)
  }

  /// Runs `work` for every index in `0..<count` on `width` threads; returns when all are done.
  static func forEach(_ count: Int, width: Int, _ work: @escaping @Sendable (Int) -> Void) {
    let next = NextIndex()
    let group = DispatchGroup()
    for _ in 0..<max(1, width) {
      group.enter()
      Thread.detachNewThread {
        while let index = next.take(below: count) { work(index) }
        group.leave()
      }
    }
    group.wait()
  }
}

/// The next index to work on, shared by the worker threads.
private final class NextIndex: @unchecked Sendable {  // guarded by `lock`
  private let lock = NSLock()
  private var value = 0

  func take(below count: Int) -> Int? {
    lock.lock()
    defer { lock.unlock() }
    guard value < count else { return nil }
    value += 1
    return value - 1
  }
}

/// One value per index, filled in by worker threads.
final class Collected<Value: Sendable>: @unchecked Sendable {  // guarded by `lock`
  private let lock = NSLock()
  private var values: [Value]

  init(count: Int, initial: Value) { values = Array(repeating: initial, count: count) }

  func set(_ index: Int, _ value: Value) {
    lock.lock()
    values[index] = value
    lock.unlock()
  }

  var all: [Value] {
    lock.lock()
    defer { lock.unlock() }
    return values
  }
}
