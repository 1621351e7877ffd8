import BabyDashboardTesting
import Foundation
import Testing

/// Runs the built `babydash` as a child process, as a person or a script would.
struct BabydashProcess {
  typealias Result = ChildProcess.Result

  /// The executable, beside the test bundle in the build products folder.
  static let executable = ChildProcess.builtExecutable("babydash")

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
  func start(_ arguments: [String], environment extra: [String: String] = [:]) throws -> ChildProcess {
    do {
      // The host's zone is the tool's default (with --now too): UTC unless a test says otherwise.
      let defaults = ["BABYDASH_APP_GROUP": appGroup.path, "TZ": "UTC"]
      return try ChildProcess.start(Self.executable, arguments, environment: extra.merging(defaults) { old, _ in old })
    } catch let error as CocoaError where error.code == .fileNoSuchFile {
      Issue.record("babydash is not built at \(Self.executable.path): run swift build first")
      throw error
    }
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
