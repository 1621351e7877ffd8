import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Another process holding the store's lock past the timeout: the command exits 75 (temporary
/// failure: try again), says so naming who may hold it, and writes nothing.
@Suite struct LockedStoreCommandTests {
  @Test func aStoreLockedTooLongExits75AndWritesNothing() throws {
    let tool = try BabydashProcess()
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-03-10T07:00:00Z", ["baby", "add", "Mia"]).status == 0)
    let lock = tool.appGroup.appendingPathComponent("BabyDashboard.store/local/lock").path
    let fd = open(lock, O_RDWR)
    try #require(fd >= 0)
    defer { close(fd) }
    try #require(flock(fd, LOCK_EX) == 0)
    let before = try tool.snapshot()
    let result = try tool.run(at: "2026-03-10T07:05:00Z", ["diaper", "Mia", "pee"])
    #expect(result.status == 75, "\(result.stderr)")
    #expect(result.stderr.contains("lock"), "\(result.stderr)")
    #expect(result.stderr.contains("(the app, its widget or another babydash)"), "\(result.stderr)")
    #expect(try tool.snapshot() == before)
  }
}
