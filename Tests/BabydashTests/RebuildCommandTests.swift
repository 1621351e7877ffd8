import Foundation
import Testing

/// A rebuild is a rebuild: a cache lost whole is rebuilt from the change files and said so, never
/// reported as another phone's news ("From vm: 2 feeds added").
@Suite struct RebuildCommandTests {
  @Test func aLostCacheIsSaidAsARebuildNotCreditedToAnotherPhone() throws {
    let tool = try BabydashProcess()
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-03-10T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    #expect(try tool.run(at: "2026-03-10T07:30:00Z", ["feed", "log", "Mia", "--start", "07:00", "--end", "07:20"]).status == 0)
    try FileManager.default.removeItem(at: tool.appGroup.appendingPathComponent("BabyDashboard.store/local"))
    let status = try tool.run(at: "2026-03-10T08:00:00Z", ["history"])
    #expect(status.status == 0, "\(status.stderr)")
    #expect(status.stderr == "babydash: note: rebuilt the cache from the change files (2 objects)\n", "\(status.stderr)")
    #expect(status.stdout.contains("Mia"))
    // Once rebuilt, nothing more to say.
    #expect(try tool.run(at: "2026-03-10T08:00:00Z", ["history"]).stderr.isEmpty)
  }
}
