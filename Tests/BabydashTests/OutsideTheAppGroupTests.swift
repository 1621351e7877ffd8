import BabyDashboardTesting
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Nothing outside the app group is ever created, written, followed or re-moded — whatever
/// stands in the app group in place of a file or a folder, whatever a person types as a name —
/// and what the store creates is private (0600 files, 0700 folders) even under umask 000.
@Suite struct OutsideTheAppGroupTests {
  static let now = "2026-03-10T09:00:00Z"
  /// A read, `check`, two writes (one of the store, one of the widget's cache).
  static let commands: [[String]] = [["export"], ["check"], ["diaper", "Mia", "poo", "--at", "08:30"], ["widget"]]

  @Test func aSymbolicLinkInPlaceOfAnyFileOrFolderLeadsNowhereOutside() async throws {
    let report = try await onOwnThread { try Self.symbolicLinkCases() }
    print("OutsideTheAppGroupTests: \(report.cases) links × \(Self.commands.count) commands under umask 000, nothing outside touched")
    #expect(report.failures == [], "\(report.failures.joined(separator: "\n"))")
    #expect(report.cases >= 18, "every file and folder of a seeded app group is tried")
  }

  @Test func craftedNamesNeitherLeaveTheAppGroupNorReachTheTerminalRaw() async throws {
    let failures = try await onOwnThread { try Self.craftedNameCases() }
    #expect(failures == [], "\(failures.joined(separator: "\n"))")
  }

  // MARK: The cases

  static func symbolicLinkCases() throws -> (cases: Int, failures: [String]) {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let seeded = scratch.url.appendingPathComponent("seeded")
    try seed(seeded, scratch: scratch.url)
    let paths = try FileManager.default.subpathsOfDirectory(atPath: seeded.path).sorted()
    var failures: [String] = []
    for relative in paths {
      let group = scratch.url.appendingPathComponent("case")
      let outside = scratch.url.appendingPathComponent("outside")
      try? FileManager.default.removeItem(at: group)
      try? FileManager.default.removeItem(at: outside)
      try FileManager.default.copyItem(at: seeded, to: group)
      try makeOutside(outside)
      let target = group.appendingPathComponent(relative)
      var isFolder: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: target.path, isDirectory: &isFolder)
      try FileManager.default.removeItem(at: target)
      try FileManager.default.createSymbolicLink(
        at: target, withDestinationURL: outside.appendingPathComponent(isFolder.boolValue ? "folder" : "file.json"))
      let before = try state(of: outside)
      for command in commands {
        let result = try runUnderUmaskZero(group, command, scratch: scratch.url)
        let name = "\(relative) → link, babydash \(command.joined(separator: " "))"
        if result.status == nil { failures.append("\(name): hung") }
        if result.signalled { failures.append("\(name): crashed") }
        if try state(of: outside) != before { failures.append("\(name): changed something outside the app group") }
        if let loose = try looseModes(in: group) { failures.append("\(name): \(loose)") }
      }
    }
    return (paths.count, failures)
  }

  static func craftedNameCases() throws -> [String] {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let group = scratch.url.appendingPathComponent("group")
    let outside = scratch.url.appendingPathComponent("outside")
    try seed(group, scratch: scratch.url)
    try makeOutside(outside)
    let before = try state(of: outside)
    var failures: [String] = []
    let names = ["../outside/x", "../../etc/passwd", "Mia\nLeo", "\u{1B}[31mred\u{1B}[0m", "bell\u{07}", String(repeating: "A", count: 100_000)]
    for name in names {
      let shown = name.count > 20 ? "\(name.prefix(12).debugDescription)… (\(name.count) characters)" : name.debugDescription
      for command in [["baby", "add", name], ["baby", "rename", "Mia", name], ["feed", "log", name, "--start", "07:00"]] {
        let result = try runUnderUmaskZero(group, command, scratch: scratch.url)
        if result.status == nil || result.signalled { failures.append("\(command[0]) \(command[1]) \(shown): hung or crashed") }
        if let raw = rawControl(result.stdout + result.stderr) { failures.append("\(command[0]) \(command[1]) \(shown): printed \(raw) raw") }
      }
    }
    // Names a sync engine (or an attacker) puts in changes/: listed, never followed or printed raw.
    let changes = group.appendingPathComponent("BabyDashboard.store/changes")
    for name in ["..\u{1B}[2J", "evil\nname.json", String(repeating: "b", count: 250)] {
      try Data("{}".utf8).write(to: changes.appendingPathComponent(name))
      chmod(changes.appendingPathComponent(name).path, 0o600)  // the test's own file: its mode is not the store's
    }
    for command in [["sync", "status"], ["check"], ["export"], ["sync", "now"]] {
      let result = try runUnderUmaskZero(group, command, scratch: scratch.url)
      if result.status == nil || result.signalled { failures.append("\(command.joined(separator: " ")): hung or crashed") }
      if let raw = rawControl(result.stdout + result.stderr) { failures.append("\(command.joined(separator: " ")): printed \(raw) raw") }
    }
    if try state(of: outside) != before { failures.append("a crafted name changed something outside the app group") }
    if let loose = try looseModes(in: group) { failures.append(loose) }
    return failures
  }

  // MARK: Support

  /// An app group with every kind of file: the store (change files, cache), Preferences/ and
  /// WidgetCache/.
  static func seed(_ group: URL, scratch: URL) throws {
    try FileManager.default.createDirectory(at: group, withIntermediateDirectories: true)
    for command in [
      ["baby", "add", "Mia"], ["feed", "log", "Mia", "--start", "07:00", "--end", "07:20", "--amount", "100ml"],
      ["diaper", "Mia", "pee", "--at", "08:00"], ["widget"],
    ] {
      let result = try runUnderUmaskZero(group, command, scratch: scratch)
      guard result.status == 0 else { throw Failure("seeding: babydash \(command) exited \(String(describing: result.status)): \(result.stderr)") }
    }
  }

  /// A folder outside the app group that links point at: a file and a folder with a file in it.
  static func makeOutside(_ outside: URL) throws {
    try FileManager.default.createDirectory(at: outside.appendingPathComponent("folder"), withIntermediateDirectories: true)
    try Data("{\"outside\":true}".utf8).write(to: outside.appendingPathComponent("file.json"))
    try Data("canary".utf8).write(to: outside.appendingPathComponent("folder/canary"))
    chmod(outside.appendingPathComponent("file.json").path, 0o644)
  }

  /// Every entry under `folder` with its bytes and its mode: what must not change.
  static func state(of folder: URL) throws -> [String: String] {
    var state: [String: String] = [:]
    for relative in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
      let path = folder.appendingPathComponent(relative).path
      var info = stat()
      guard lstat(path, &info) == 0 else { continue }
      let bytes = (try? Data(contentsOf: URL(fileURLWithPath: path))).map { $0.base64EncodedString() } ?? "-"
      state[relative] = "\(info.st_mode) \(bytes)"
    }
    return state
  }

  /// A file or folder of the app group that others could read or write, if any.
  static func looseModes(in group: URL) throws -> String? {
    for relative in try FileManager.default.subpathsOfDirectory(atPath: group.path) {
      var info = stat()
      guard lstat(group.appendingPathComponent(relative).path, &info) == 0, (info.st_mode & S_IFMT) != S_IFLNK else { continue }
      if info.st_mode & 0o077 != 0 { return "\(relative) has mode \(String(info.st_mode & 0o777, radix: 8))" }
    }
    return nil
  }

  /// A control character other than a newline or a tab, as the terminal would receive it.
  static func rawControl(_ text: String) -> String? {
    text.unicodeScalars.first { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F }.map { "U+\(String($0.value, radix: 16))" }
  }

  static func runUnderUmaskZero(_ group: URL, _ arguments: [String], scratch: URL) throws -> TimedProcess.Result {
    try TimedProcess.run(
      URL(fileURLWithPath: "/bin/sh"), ["-c", "umask 000; exec \"$0\" \"$@\"", BabydashProcess.executable.path, "--now", now] + arguments,
      environment: ["BABYDASH_APP_GROUP": group.path], scratch: scratch)
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  struct Scratch {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("outside-\(UUID().uuidString)")
    init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    func remove() { try? FileManager.default.removeItem(at: url) }
  }
}
