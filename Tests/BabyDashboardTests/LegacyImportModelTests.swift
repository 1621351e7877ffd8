@testable import BabyDashboard
import Foundation
import PlainStore
import Testing

/// The public legacy model: others build and encode it (the benchmark's 100k-record files), and
/// it reads back exactly.
@Suite struct LegacyImportModelTests {
  static let mia = UUID(uuidString: "11111111-1111-4111-8111-111111111111")!

  @Test func anExportBuiltInCodeRoundTripsThroughJSON() throws {
    let start = ISO8601.parse("2025-11-02T03:00:00.25Z")!
    let export = LegacyExport(
      exportedAt: ISO8601.parse("2026-01-10T08:00:00Z")!,
      babyProfiles: [LegacyBabyProfile(id: Self.mia, name: "Mia", lastFeedAmountValue: 90, lastFeedAmountUnitSymbol: "ml")],
      feedSessions: [
        LegacyFeedSession(profileID: Self.mia, startTime: start, endTime: start + 900, amountValue: 4, amountUnitSymbol: "oz", memoText: "#night"),
        LegacyFeedSession(profileID: nil, startTime: start + 7200),
      ],
      diaperChanges: [LegacyDiaperChange(profileID: Self.mia, timestamp: start + 60, type: .poo)])
    let data = try export.encoded()
    #expect(try LegacyExport.decode(from: data, source: "memory") == export)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains(#""startTime":"2025-11-02T03:00:00.25Z""#))
    #expect(text.contains(#""format":"BabyDashboard.SwiftDataExport""#))
    #expect(text.contains(#""version":1"#))
  }

  @Test func absentAndNullOptionalKeysReadTheSame() throws {
    let header = #""format":"BabyDashboard.SwiftDataExport","version":1,"exportedAt":"2026-01-10T08:00:00+09:00""#
    let absent = #"{\#(header),"feedSessions":[{"startTime":"2025-11-01T15:00:00Z"}]}"#
    let null =
      #"{\#(header),"babyProfiles":[],"diaperChanges":[],"feedSessions":[{"profileID":null,"startTime":"2025-11-01T15:00:00Z","endTime":null,"amountValue":null,"amountUnitSymbol":null,"memoText":null}]}"#
    let a = try LegacyExport.decode(from: Data(absent.utf8), source: "a")
    let b = try LegacyExport.decode(from: Data(null.utf8), source: "b")
    #expect(a == b)
    #expect(a.exportedAt == ISO8601.parse("2026-01-09T23:00:00Z"))
    #expect(a.feedSessions == [LegacyFeedSession(profileID: nil, startTime: ISO8601.parse("2025-11-01T15:00:00Z")!)])
  }

  @Test func theFamilySampleReads() throws {
    let export = try LegacyImportHarness.reader("legacy", "family.json").read()
    #expect(export.recordCount == 20)
    #expect(export.feedSessions[2].startTime == ISO8601.parse("2025-11-02T00:30:00Z"))
    #expect(export.diaperChanges[4].timestamp == ISO8601.parse("2025-11-03T07:45:30.5Z"))
  }

  @Test func sha1MatchesTheStandardVectors() {
    func hex(_ text: String) -> String { SHA1.digest(Array(text.utf8)).map { String(format: "%02x", $0) }.joined() }
    #expect(hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d")
    #expect(hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    #expect(hex(String(repeating: "a", count: 1000)) == "291e9a6c66994949b57ba5e650361e98fc36b1ba")
  }

  @Test func nameBasedUUIDsMatchTheRFCExample() {
    // RFC 9562 appendix A.4: version 5 of "www.example.com" in the DNS namespace.
    let dns = UUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8")!
    #expect(NameBasedUUID.make(namespace: dns, name: "www.example.com") == UUID(uuidString: "2ED6657D-E927-568B-95E1-2665A8AEA6A2"))
  }
}
