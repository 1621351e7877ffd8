import BabyDashboard
import Foundation
import Testing

/// Values a person can type that the store cannot hold or the tool cannot count: refused with
/// an exit status and a message, never a crash (a trap ends the process on a signal), never a
/// store that every later command calls damaged.
@Suite struct StorageFaultCommandTests {
  /// A crash shows as a signal number (4, 5, 11) where an exit status should be.
  static func expectNoCrash(_ result: BabydashProcess.Result, _ allowed: Set<Int32>) {
    #expect(allowed.contains(result.status), "exit \(result.status): \(result.stderr)")
    #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)")
  }

  /// The command, and what its message must name: the store's range when `--now` itself lies
  /// beyond it, or the tracker's rule for a time after "now".
  @Test(arguments: [
    (["--now", "9999-12-31T23:00:00-14:00", "diaper", "Mia", "pee"], "years 0000 to 9999"),
    (["--time-zone", "America/New_York", "feed", "log", "Mia", "--start", "9999-12-31T23:00"], "future"),
  ])
  func aTimeBeyondTheYear9999IsRefusedAndTheStoreStaysReadable(_ arguments: [String], _ reason: String) throws {
    let tool = try BabydashProcess()
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-01-15T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    let before = try tool.snapshot()

    let refused = try tool.run(arguments)
    Self.expectNoCrash(refused, [64, 65])
    #expect(refused.stderr.contains(reason), "\(refused.stderr)")
    #expect(try tool.snapshot() == before)

    let status = try tool.run(at: "2026-01-15T07:00:00Z", ["status"])
    #expect(status.status == 0, "\(status.stderr)")
  }

  /// A clock time (`--at 09:30`) is read on "today" or the day before: before the year 0000
  /// there is no such day to read it on.
  @Test(arguments: [
    ["--now", "0000-01-01T00:30:00+01:00", "diaper", "Mia", "pee", "--at", "09:30"],
    ["--now", "0000-01-01T00:30:00Z", "--time-zone", "America/New_York", "diaper", "Mia", "pee", "--at", "09:30"],
    ["--now", "0000-01-01T00:30:00Z", "diaper", "Mia", "pee", "--at", "23:30"],
  ])
  func aClockTimeBeforeTheYear0000IsAUsageErrorNotACrash(_ arguments: [String]) throws {
    let tool = try BabydashProcess()
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-01-15T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    let before = try tool.snapshot()
    let result = try tool.run(arguments)
    Self.expectNoCrash(result, [64, 65])
    #expect(result.stderr.contains("years 0000 to 9999"), "\(result.stderr)")
    #expect(try tool.snapshot() == before)
  }

  @Test(arguments: ["2562047788015216h", "9223372036854775807h", "1h9223372036854775807s", "153722867280912931m"])
  func aFeedTermTooLongToCountIsAUsageErrorNotACrash(_ term: String) throws {
    let tool = try BabydashProcess()
    defer { tool.removeAll() }
    let result = try tool.run(at: "2026-01-15T06:00:00Z", ["baby", "add", "Mia", "--feed-term", term])
    Self.expectNoCrash(result, [64])
    #expect(result.stderr.contains("bad value '\(term)' for --feed-term"), "\(result.stderr)")
    #expect(try tool.snapshot().isEmpty)
  }

  /// `--feed-term 9223372036854775807` is 2^63 seconds: either refused as a feed term, or
  /// stored; then the widget and the dashboard must still work and write a file the widget reads.
  @Test func theWidgetAfterAnEnormousFeedTermWorks() throws {
    let tool = try BabydashProcess()
    defer { tool.removeAll() }
    let added = try tool.run(at: "2026-01-15T06:00:00Z", ["baby", "add", "Mia", "--feed-term", "9223372036854775807"])
    Self.expectNoCrash(added, [0, 64, 65])
    guard added.status == 0 else { return }
    Self.expectNoCrash(try tool.run(at: "2026-01-15T06:10:00Z", ["feed", "start", "Mia"]), [0])
    for command in [["widget"], ["widget", "--family", "small"], ["status"], ["baby", "list"]] {
      Self.expectNoCrash(try tool.run(at: "2026-01-15T06:20:00Z", command), [0])
    }
    let snapshots = try BabyWidgetSnapshots.read(appGroupDirectory: tool.appGroup)
    #expect(snapshots?.babies.first?.name == "Mia")
    #expect(snapshots?.babies.first?.nextFeedDue == nil)
  }
}

/// The app group's sibling folders and files as the tool leaves them, whatever the umask.
@Suite struct AppGroupModeCommandTests {
  /// Runs babydash under `umask 000`, the umask that lets every mode bit through.
  func runUnderUmask000(_ tool: BabydashProcess, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "umask 000; exec \"$0\" \"$@\"", BabydashProcess.executable.path, "--now", "2026-01-15T06:30:00Z"] + arguments
    var environment = ProcessInfo.processInfo.environment
    environment["BABYDASH_APP_GROUP"] = tool.appGroup.path
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  static func mode(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? NSNumber)?.intValue ?? -1
  }

  @Test func preferencesAndWidgetCacheAre0700FoldersOf0600FilesUnderUmask000() throws {
    let tool = try BabydashProcess()
    defer { tool.removeAll() }
    for step in [
      ["baby", "add", "Mia", "--created-at", "2026-01-15T05:00:00Z"], ["feed", "start", "Mia", "--at", "06:00"],
      ["feed", "finish", "Mia", "--amount", "120ml"], ["widget"],
    ] {
      #expect(try runUnderUmask000(tool, step) == 0, "\(step)")
    }
    for folder in ["Preferences", "WidgetCache"] {
      let path = tool.appGroup.appendingPathComponent(folder).path
      #expect(Self.mode(path) == 0o700, "\(folder)")
      let names = try FileManager.default.contentsOfDirectory(atPath: path)
      #expect(!names.isEmpty, "\(folder) is empty")
      for name in names {
        #expect(Self.mode(path + "/" + name) == 0o600, "\(folder)/\(name)")
      }
    }
  }

  @Test func aSymbolicLinkInPlaceOfTheWidgetCacheIsRefusedNamingIt() throws {
    let tool = try BabydashProcess()
    defer { tool.removeAll() }
    let outside = FileManager.default.temporaryDirectory.appendingPathComponent("babydash-outside-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: outside) }
    #expect(try tool.run(at: "2026-01-15T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    let link = tool.appGroup.appendingPathComponent("WidgetCache")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: outside)
    let result = try tool.run(at: "2026-01-15T06:10:00Z", ["widget"])
    #expect(result.status == 65, "\(result.stderr)")
    #expect(result.stderr.contains(link.path) && result.stderr.contains("symbolic link"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: outside.path))
  }
}
