import BabyDashboardPreviews
import BabyDashboardText
import Foundation
import Testing

/// The previews depend on their world only: the host's time zone and language change no byte.
///
/// The host is changed in a child process (`babydash` started with TZ, LANG and LC_ALL set), never
/// in this one: setenv() while other suites read the environment in parallel is undefined
/// behaviour in glibc.
@Suite struct HostIndependenceTests {
  @Test(arguments: [
    ("Pacific/Kiritimati", "ar_EG.UTF-8", ["UTC+14:00"]),
    ("America/St_Johns", "de_DE.UTF-8", ["UTC-03:30", "UTC-02:30"]),
    ("Asia/Kathmandu", "th_TH.UTF-8", ["UTC+05:45"]),
  ])
  func everyPreviewRendersTheSameBytesInAnyHostZoneAndLanguage(zone: String, language: String, offsets: [String]) throws {
    let tool = try BabydashProcess()
    defer { tool.removeAll() }
    let host = ["TZ": zone, "LANG": language, "LC_ALL": language]

    // The child's host really is elsewhere, as Foundation sees it: the dashboard's header, in
    // the system's zone (no --time-zone), shows that zone's offset.
    #expect(try tool.run(["baby", "add", "Mia"], environment: host).status == 0)
    let status = try tool.run(["status"], environment: host)
    #expect(status.status == 0, "\(status.stderr)")
    let header = status.stdout.split(separator: "\n").first.map(String.init) ?? ""
    #expect(offsets.contains { header.hasSuffix($0) }, "TZ=\(zone): \(header)")

    let check = try tool.run(
      ["previews", "--check", "--dir", ViewCommandTests.previews.path],
      environment: host.merging(["SNAPSHOT_ARTIFACTS": tool.appGroup.appendingPathComponent("artifacts").path]) { $1 })
    #expect(check.status == 0, "the previews changed under TZ=\(zone) LANG=\(language):\n\(check.stderr)")
  }

  /// The world's zone, unlike the host's, does change the text: the test above can fail.
  @Test @MainActor func theWorldsZoneDecidesTheClockTimes() throws {
    let entry = try #require(PreviewCatalog.entry(named: "Dashboard/two-babies"))
    let kiritimati = PreviewWorld(now: PreviewWorld.standard.now, timeZone: try #require(TimeZone(identifier: "Pacific/Kiritimati")))
    let standard = try entry.render(in: .standard)
    let elsewhere = try entry.render(in: kiritimati)
    #expect(standard.contains("since 10:05 (25m)"))
    #expect(elsewhere.contains("since 04:05 (25m)"))
  }
}
