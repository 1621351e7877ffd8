import BabyDashboardTesting
import Foundation
import Testing

@testable import PlainStore

/// A sync through CloudKit killed for real (SIGKILL, nothing cleaned up) at each of its steps,
/// in a process of its own: plainstore-stress `cloud-sync` on a simulated CloudKit whose server
/// lives in a file the processes share. The phone synced again holds every file of the other
/// phone once, byte for byte, with no conflict copy, and every item. `CloudKitKillTests` stops
/// the same steps inside one process.
@Suite struct CloudKitProcessKillTests {
  /// Each step of a sync: this phone's files sent (their records' names not saved yet), and each
  /// fetched batch (one record each) with its files durable and its engine state not saved, then
  /// saved. The other phone's five changes and its device.json are six batches.
  static let phases = ["cloudkit: sent"] + (1...6).flatMap { ["cloudkit: batch \($0) written", "cloudkit: batch \($0) saved"] }

  @Test(arguments: phases)
  func aSyncKilledAtEachStepLosesNothingAndWritesNothingTwice(at phase: String) async throws {
    try await onOwnThread { [self] in
      let scratch = try ScratchFolder()
      defer { scratch.remove() }
      let cloud = scratch.url.appendingPathComponent("cloud.json").path
      let (one, two) = (scratch.url.appendingPathComponent("one.store"), scratch.url.appendingPathComponent("two.store"))
      _ = try MultiProcessChild.run(["write", one.path, "--writer", "mum", "--commits", "5"])
      // The sender is killed once its records are up and before it saved that they are: it
      // sends them again, and the server's equal bytes are success.
      let sender = phase == "cloudkit: sent" ? one : two
      if sender == one { try killed(["cloud-sync", one.path, "--cloud", cloud, "--kill-at", phase]) }
      _ = try MultiProcessChild.run(["cloud-sync", one.path, "--cloud", cloud])
      if sender == two { try killed(["cloud-sync", two.path, "--cloud", cloud, "--kill-at", phase]) }
      let synced = try MultiProcessChild.run(["cloud-sync", two.path, "--cloud", cloud])
      #expect(synced.lines.last == "synced 5", "\(synced.lines)")

      let mum = try #require(try FileManager.default.contentsOfDirectory(atPath: one.appendingPathComponent("changes").path).first { DeviceID($0) != nil })
      let sent = try files(in: one.appendingPathComponent("changes/\(mum)"))
      #expect(sent.count == 6, "five changes and device.json: \(sent.keys.sorted())")
      #expect(try files(in: two.appendingPathComponent("changes/\(mum)")) == sent, "every file once, byte for byte, no conflict copy")
    }
  }

  /// Runs a child that must end by the SIGKILL it sends itself at its phase.
  private func killed(_ arguments: [String]) throws {
    let child = try MultiProcessChild(arguments)
    let status = child.waitForExit()
    #expect(status == -SIGKILL, "\(arguments.last!): ended with \(status), not killed there: \(child.lines) \(child.errorText)")
  }

  private func files(in folder: URL) throws -> [String: Data] {
    var found: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
      found[name] = try Data(contentsOf: folder.appendingPathComponent(name))
    }
    return found
  }
}
