import Testing

@testable import PlainStore

/// Names read from the manifest become paths only if they are names the store writes.
@Suite struct SegmentFileNameTests {
  @Test(arguments: ["Event.2026-01.00000001.json", "Owner.all.00000042.json", "Event.0999-12.12345678.json"])
  func namesTheStoreWritesPass(_ name: String) {
    #expect(SegmentKey.isSegmentFileName(name, entities: ["Event", "Owner"]))
  }

  @Test(arguments: [
    "../outside/x.json", "Event.2026-01.0000001.json", "Event.2026-01.000000001.json", "Event.2026-13.00000001.json",
    "Ev.ent.all.00000001.json", ".all.00000001.json", "Event.all.00000001.json.tmp", "Event..00000001.json",
    "Badge.all.00000001.json", "Event.all.0000000a.json", "Event.all.00000001.JSON", "Event.all.00000001json",
    "Event.all..00000001.json", "Event.a/l.00000001.json", "Event.all.00000001.json/", "Évent.all.00000001.json", "",
  ])
  func anythingElseIsRefused(_ name: String) {
    #expect(!SegmentKey.isSegmentFileName(name, entities: ["Event", "Owner", "Ev.ent"]))
  }

  @Test(arguments: [
    (0, "0000-01"), (11, "0000-12"), (12 * 9 + 2, "0009-03"), (12 * 99 + 9, "0099-10"), (12 * 999 + 10, "0999-11"),
    (12 * 2026, "2026-01"), (12 * 9999 + 11, "9999-12"), (12 * 10000, "10000-01"),
  ])
  func monthNamesAreYearDashMonth(_ index: Int, _ name: String) {
    #expect(SegmentKey.name(monthIndex: index) == name)
    #expect(SegmentKey.monthIndex(of: name) == index)
  }
}
