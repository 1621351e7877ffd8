import Foundation
import Testing

/// Two devices, each a `babydash` on its own app group, whose `changes/` folders a real pair of
/// Syncthing instances on 127.0.0.1 keeps in step: what a family with two phones and a desktop
/// does. `.ci/run` installs syncthing, so CI always runs this; elsewhere it is skipped, saying so.
@Suite(.serialized) struct SyncthingTests {
  static let now = "2026-03-10T09:00:00Z"

  /// On CI the test runs, and fails, when syncthing is missing: CI must run every case.
  static let canRun = SyncthingPeer.executable != nil || CannotRun.isCI

  @Test(
    .enabled(if: canRun, "syncthing is not installed (apt-get install syncthing; .ci/run does)"),
    .timeLimit(.minutes(5)))
  func twoDevicesWritingAtOnceAndApartEndWithIdenticalExports() throws {
    guard SyncthingPeer.executable != nil else {
      return CannotRun.report("SyncthingTests", "syncthing is not installed (apt-get install syncthing; .ci/run does)")
    }
    let a = try BabydashProcess()
    let b = try BabydashProcess()
    let homes = FileManager.default.temporaryDirectory.appendingPathComponent("syncthing-\(UUID().uuidString)")
    defer {
      a.removeAll()
      b.removeAll()
      try? FileManager.default.removeItem(at: homes)
    }
    let started = Date()
    // Device A starts the store; device B has only the folder the sync engine fills.
    try expectSuccess(a, ["baby", "add", "Mia"])
    try expectSuccess(a, ["baby", "add", "Leo"])
    let changesA = a.appGroup.appendingPathComponent("BabyDashboard.store/changes")
    let changesB = b.appGroup.appendingPathComponent("BabyDashboard.store/changes")
    try FileManager.default.createDirectory(at: changesB, withIntermediateDirectories: true)

    let base = Int.random(in: 20_000..<60_000)
    let peerA = try SyncthingPeer(home: homes.appendingPathComponent("a"), guiPort: base, syncPort: base + 1)
    let peerB = try SyncthingPeer(home: homes.appendingPathComponent("b"), guiPort: base + 2, syncPort: base + 3)
    defer {
      peerA.stop()
      peerB.stop()
    }
    try peerA.start()
    try peerB.start()
    try peerA.addDevice(peerB)
    try peerB.addDevice(peerA)
    try peerA.shareFolder(id: "babydash", path: changesA, with: peerB)
    try peerB.shareFolder(id: "babydash", path: changesB, with: peerA)

    try waitUntilInStep(changesA, changesB)
    try expectSuccess(b, ["sync", "now"])
    #expect(try b.run(["--now", Self.now, "baby", "list"]).stdout.contains("Mia"))

    // Both parents log at once — the same feed of Mia on both phones, and a diaper each.
    let writes = [
      try a.start(["--now", Self.now, "feed", "log", "Mia", "--start", "06:00", "--end", "06:20", "--amount", "100ml"]),
      try b.start(["--now", Self.now, "feed", "log", "Mia", "--start", "06:00", "--end", "06:25", "--memo", "#latch"]),
      try a.start(["--now", Self.now, "diaper", "Leo", "pee", "--at", "06:30"]),
      try b.start(["--now", Self.now, "diaper", "Mia", "poo", "--at", "06:31"]),
    ]
    for write in writes {
      let result = write.wait()
      #expect(result.status == 0, "\(result.stderr)")
    }
    try waitUntilInStep(changesA, changesB)
    try expectSameExports(a, b)

    // Apart: each side keeps writing while the engines cannot see each other.
    try peerA.pause(peerB)
    try peerB.pause(peerA)
    try expectSuccess(a, ["feed", "log", "Leo", "--start", "07:00", "--end", "07:10", "--amount", "4oz"])
    try expectSuccess(b, ["feed", "log", "Leo", "--start", "07:30", "--end", "07:45"])
    try expectSuccess(b, ["baby", "rename", "Mia", "Mila"])
    try expectSuccess(a, ["diaper", "Mia", "pee", "--at", "08:00"])
    #expect(try b.run(["--now", Self.now, "sync", "status"]).stdout.contains("This device"))
    try peerA.resume(peerB)
    try peerB.resume(peerA)
    try waitUntilInStep(changesA, changesB)
    let export = try expectSameExports(a, b)
    #expect(export.contains("\"Mila\""), "the rename made while apart")
    #expect(export.components(separatedBy: "\"startTime\"").count - 1 == 3, "three feeds: the one logged twice is one")

    // Both compact: a first (b has acknowledged nothing, so a keeps its files), then b (a's
    // snapshot covers b's changes), then a again (b's snapshot now covers a's).
    for device in [a, b, a] {
      try expectSuccess(device, ["sync", "compact"])
      try waitUntilInStep(changesA, changesB)
    }
    #expect(try expectSameExports(a, b) == export, "compaction changes no object on either device")
    let left = Self.changeFiles(changesA).keys.filter { !$0.hasSuffix("device.json") && !$0.contains("snapshot-") }
    #expect(left.isEmpty, "every change file was acknowledged by both, and deleted by its own device: \(left.sorted())")
    #expect(Self.changeFiles(changesA).keys.filter { $0.contains("snapshot-") }.count == 2)
    for device in [a, b] {
      #expect(try device.run(["--now", Self.now, "check"]).status == 0)
    }
    print("SyncthingTests: two devices in step through syncthing in \(Int(Date().timeIntervalSince(started))) s")
  }

  func expectSuccess(_ device: BabydashProcess, _ arguments: [String]) throws {
    let result = try device.run(["--now", Self.now] + arguments)
    #expect(result.status == 0, "babydash \(arguments.joined(separator: " ")): \(result.stderr)")
  }

  /// Merges what arrived on both devices and compares their exports, less the last-feed-amount
  /// cache (a per-phone preference that does not sync). Returns the export.
  @discardableResult
  func expectSameExports(_ a: BabydashProcess, _ b: BabydashProcess) throws -> String {
    try expectSuccess(a, ["sync", "now"])
    try expectSuccess(b, ["sync", "now"])
    let exports = try [a, b].map { device -> String in
      let text = try device.run(["--now", Self.now, "export"]).stdout
      var object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
      object["lastFeedAmounts"] = nil
      return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
    #expect(exports[0] == exports[1])
    return exports[0]
  }

  /// Waits until both folders hold the same change files, and stay so for two looks in a row.
  func waitUntilInStep(_ first: URL, _ second: URL) throws {
    let deadline = Date().addingTimeInterval(120)
    var matches = 0
    while Date() < deadline {
      let (x, y) = (Self.changeFiles(first), Self.changeFiles(second))
      matches = (!x.isEmpty && x == y) ? matches + 1 : 0
      if matches >= 2 { return }
      usleep(500_000)
    }
    Issue.record("the two devices' change folders did not come into step within 120 s")
    throw SyncthingPeer.PeerError("not in step")
  }

  static func changeFiles(_ folder: URL) -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    while let url = enumerator?.nextObject() as? URL {
      let name = url.lastPathComponent
      guard !name.hasPrefix("."), !name.hasPrefix("~"), let data = try? Data(contentsOf: url), !url.hasDirectoryPath else { continue }
      files[url.path.replacingOccurrences(of: folder.path, with: "")] = data
    }
    return files
  }
}
