import BabyDashboard
import Foundation
import PlainStore
import PlainStoreTesting
import Testing

/// Two parents' phones on the simulated CloudKit, as an app's tests would write them with the
/// public API alone: Mum's phone (a store in a temporary folder) and Dad's (in memory), each on
/// its own account. Dad accepts the share of Mum's zone and sees the family; each phone's
/// changes reach the other; after Dad leaves, his phone keeps everything, says so, and its new
/// changes stay out of Mum's zone.
@Suite struct TwoParentsOnCloudKitTests {
  @Test func theSecondParentJoinsThroughTheShareAndLeavesWithEverything() throws {
    let cloud = SimulatedCloudKit()
    func options(_ device: SimulatedCloudKit.Device) -> StoreOptions {
      var options = StoreOptions(clock: { cloud.now })
      options.carrier = .simulatedCloudKit(device)
      return options
    }
    let dadsDevice = cloud.device(signedInAs: "dad")
    let mum = try StoreContainer.temporary(schema: BabyDashboardSchema.current, options: options(cloud.device(signedInAs: "mum")))
    defer { try? mum.destroy() }
    let dad = StoreContainer.inMemory(schema: BabyDashboardSchema.current, options: options(dadsDevice))
    try add("Mia", to: mum, at: cloud.now)
    try mum.sync()

    cloud.share("mum", with: "dad")
    dadsDevice.acceptShare(from: "mum")
    try dad.sync(.foreground)
    #expect(try names(dad) == ["Mia"])
    #expect(try dad.syncStatus()?.carrierNote == "syncing the family mum shares with this account")
    try add("Leo", to: dad, at: cloud.now)
    try dad.sync()
    try mum.sync(.push)
    #expect(try names(mum) == ["Leo", "Mia"])
    #expect(try mum.syncStatus()?.carrierNote == "this family is shared with dad")

    dadsDevice.leaveShare(of: "mum")
    try add("Ava", to: dad, at: cloud.now)
    try dad.sync()
    try mum.sync()
    #expect(try names(dad) == ["Ava", "Leo", "Mia"], "nothing lost on Dad's phone")
    #expect(try names(mum) == ["Leo", "Mia"], "Dad's change after leaving stays out of Mum's zone")
    #expect(try dad.syncStatus()?.carrierNote?.hasPrefix("this account left the family mum shares") == true)
    #expect(try mum.syncStatus()?.carrierNote == nil)
  }

  private func add(_ name: String, to container: StoreContainer, at date: Date) throws {
    let context = container.newBackgroundContext()
    context.insert(BabyProfile(id: UUID(), name: name, createdAt: date))
    try context.save()
  }

  private func names(_ container: StoreContainer) throws -> [String] {
    try container.newBackgroundContext().fetch(FetchDescriptor<BabyProfile>()).map(\.name).sorted()
  }
}
