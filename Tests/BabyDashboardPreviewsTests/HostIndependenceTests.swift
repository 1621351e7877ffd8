import BabyDashboardPreviews
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The previews depend on their world only: the host's time zone and language change no byte.
@Suite(.serialized) struct HostIndependenceTests {
  @Test(.serialized, arguments: [
    ("Pacific/Kiritimati", "ar_EG.UTF-8"),
    ("America/St_Johns", "de_DE.UTF-8"),
    ("Asia/Kathmandu", "th_TH.UTF-8"),
  ])
  @MainActor func everyPreviewRendersTheSameBytesInAnyHostZoneAndLanguage(zone: String, language: String) throws {
    let baseline = try PreviewFiles.render().map(\.text)
    let names = ["TZ", "LANG", "LC_ALL"]
    let saved = names.map { name in getenv(name).map { String(cString: $0) } }
    defer {
      for (name, value) in zip(names, saved) {
        if let value { setenv(name, value, 1) } else { unsetenv(name) }
      }
      tzset()
      NSTimeZone.resetSystemTimeZone()
    }
    setenv("TZ", zone, 1)
    setenv("LANG", language, 1)
    setenv("LC_ALL", language, 1)
    tzset()
    NSTimeZone.resetSystemTimeZone()
    // The host really is elsewhere now, as Foundation sees it.
    #expect(TimeZone.current.identifier == zone)

    let rendered = try PreviewFiles.render().map(\.text)

    #expect(rendered.count == baseline.count)
    for (index, (now, before)) in zip(rendered, baseline).enumerated() where now != before {
      Issue.record("\(PreviewCatalog.entries[index].name) changed under TZ=\(zone) LANG=\(language)")
    }
  }

  /// The world's zone, unlike the host's, does change the text: the test above can fail.
  @Test @MainActor func theWorldsZoneDecidesTheClockTimes() throws {
    let entry = try #require(PreviewCatalog.entry(named: "Dashboard/two-babies"))
    let kiritimati = PreviewWorld(now: PreviewWorld.standard.now, timeZone: TimeZone(identifier: "Pacific/Kiritimati")!)
    let standard = try entry.render(in: .standard)
    let elsewhere = try entry.render(in: kiritimati)
    #expect(standard.contains("since 10:05 (25m)"))
    #expect(elsewhere.contains("since 04:05 (25m)"))
  }
}
