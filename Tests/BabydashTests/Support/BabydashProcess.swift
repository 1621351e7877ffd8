import Foundation
import Testing

/// Runs the built `babydash` as a child process, as a person or a script would.
struct BabydashProcess {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// The executable, beside the test bundle in the build products folder.
  static let executable: URL = {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    // On Apple platforms the tests run inside <products>/X.xctest/Contents/MacOS/.
    while folder.pathComponents.contains(where: { $0.hasSuffix(".xctest") }) {
      folder.deleteLastPathComponent()
    }
    return folder.appendingPathComponent("babydash")
  }()

  /// An app-group folder for one test, removed by `removeAll()`.
  let appGroup: URL

  init() throws {
    appGroup = FileManager.default.temporaryDirectory
      .appendingPathComponent("babydash-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: appGroup, withIntermediateDirectories: true)
  }

  func removeAll() {
    try? FileManager.default.removeItem(at: appGroup)
  }

  /// Starts `babydash arguments…` on this app group; `wait()` on the result.
  func start(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Running {
    guard FileManager.default.isExecutableFile(atPath: Self.executable.path) else {
      Issue.record("babydash is not built at \(Self.executable.path): run swift build first")
      throw CocoaError(.fileNoSuchFile)
    }
    let process = Process()
    process.executableURL = Self.executable
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["BABYDASH_APP_GROUP"] = appGroup.path
    environment.merge(extra) { $1 }
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return Running(process: process, out: out, err: err)
  }

  /// Runs `babydash arguments…` on this app group and waits for it.
  @discardableResult
  func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
    try start(arguments, environment: environment).wait()
  }

  /// Runs `babydash` with `--now` fixed, the way the tests script a day.
  @discardableResult
  func run(at now: String, _ arguments: [String]) throws -> Result {
    try run(["--now", now] + arguments)
  }

  struct Running {
    let process: Process
    let out: Pipe
    let err: Pipe

    func wait() -> Result {
      // Read both pipes to the end before waiting, so a chatty child never blocks on a full pipe.
      let stdout = out.fileHandleForReading.readDataToEndOfFile()
      let stderr = err.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return Result(
        status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
        stderr: String(decoding: stderr, as: UTF8.self))
    }
  }

  /// Stands for any UUID in an expected message (see ``matches(_:_:)``).
  static let anyID = "<ID>"

  /// Whether `text` is `pattern` with each ``anyID`` standing for one uppercase UUID.
  static func matches(_ text: String, _ pattern: String) -> Bool {
    let pieces = pattern.components(separatedBy: anyID)
    var rest = Substring(text)
    for (index, piece) in pieces.enumerated() {
      guard rest.hasPrefix(piece) else { return false }
      rest = rest.dropFirst(piece.count)
      if index < pieces.count - 1 {
        guard rest.count >= 36, UUID(uuidString: String(rest.prefix(36))) != nil else { return false }
        rest = rest.dropFirst(36)
      }
    }
    return rest.isEmpty
  }

  /// Every file under the app group with its bytes: to prove a failed command wrote nothing.
  func snapshot() throws -> [String: Data] {
    var files: [String: Data] = [:]
    let base = appGroup.standardizedFileURL.path
    guard let walker = FileManager.default.enumerator(atPath: base) else { return files }
    for case let relative as String in walker {
      let path = base + "/" + relative
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
        files[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
      }
    }
    return files
  }
}
