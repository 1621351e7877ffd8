import BabyDashboard
import BabyDashboardFixtures
import Foundation
import Testing

@Suite struct DeviceCohortTests {
  /// 10,000 made-up device ids, as the app would mint them.
  static let ids = (0..<10_000).map { String(format: "%08X-0000-4000-8000-%012X", $0 &* 2_654_435_761 % 0xFFFF_FFFF, $0) }

  @Test func aDevicesCohortIsAStableHashOfItsIDFrom0To99() {
    #expect(DeviceCohort(deviceID: "phone-1").number == DeviceCohort(deviceID: "phone-1").number)
    #expect(DeviceCohort(deviceID: "phone-1").number == 1)  // a fixed function: the same cohort in every version
    #expect(Self.ids.allSatisfy { (0..<100).contains(DeviceCohort(deviceID: $0).number) })
  }

  @Test func devicesSpreadEvenlyOverTheCohorts() {
    var counts = Array(repeating: 0, count: 100)
    for id in Self.ids { counts[DeviceCohort(deviceID: id).number] += 1 }
    // 100 per cohort expected; a uniform spread stays well within 60–140 (about ±4 standard deviations).
    #expect(counts.min()! >= 60, "\(counts)")
    #expect(counts.max()! <= 140, "\(counts)")
  }

  @Test func aDeviceInTheRolloutStaysInAsThePercentageGrows() {
    for id in Self.ids.prefix(500) {
      let cohort = DeviceCohort(deviceID: id)
      let firstOn = (1...100).first { cohort.group(under: FlagState(percent: $0)!) == .enabled }!
      for percent in firstOn...100 { #expect(cohort.group(under: FlagState(percent: percent)!) == .enabled) }
      for percent in 0..<firstOn { #expect(cohort.group(under: FlagState(percent: percent)!) != .enabled) }
    }
  }

  @Test func theControlGroupIsAsLargeAsTheEnabledOneAndApartFromIt() {
    for percent in 1...99 {
      let groups = (0..<100).map { DeviceCohort.group(of: $0, under: .cohort(percent: percent)) }
      #expect(groups.filter { $0 == .enabled }.count == percent)
      #expect(groups.filter { $0 == .control }.count == min(percent, 100 - percent), "\(percent)%")
    }
    #expect((0..<100).allSatisfy { DeviceCohort.group(of: $0, under: .on) == .enabled })
    #expect((0..<100).allSatisfy { DeviceCohort.group(of: $0, under: .off) == .outside })
  }

  @Test func theDeviceIDIsTakenOnceAndKept() throws {
    let store = InMemoryKeyValueStore()
    #expect(try DeviceCohort.storedDeviceID(in: store) == nil)
    #expect(try DeviceCohort.deviceID(in: store, newID: { "first" }) == "first")
    #expect(try DeviceCohort.deviceID(in: store, newID: { "second" }) == "first")
    store.set(Data("42".utf8), forKey: DeviceCohort.keyValueStoreKey)
    let error = try #require(throws: KeyValueStoreError.self) { try DeviceCohort.storedDeviceID(in: store) }
    #expect(error.path == "rolloutDeviceID")
  }

  @Test(arguments: [("1.4", "1.4.0", 0), ("1.10", "1.9", 1), ("2", "1.99.99", 1), ("2.0.1", "2.1", -1)])
  func appVersionsCompareNumberByNumber(_ left: String, _ right: String, _ order: Int) throws {
    let (a, b) = (try #require(AppVersion(left)), try #require(AppVersion(right)))
    #expect((a < b ? -1 : b < a ? 1 : 0) == order)
  }

  @Test(arguments: ["", "1.", "v1", "1..2", "1.2.3.4.5", "-1"])
  func aVersionThatIsNotDottedNumbersIsRefused(_ text: String) {
    #expect(AppVersion(text) == nil)
  }
}
