import Foundation
import PlainStore
import PlainStoreTesting
import Testing

/// What an app's tests or previews write, with the public API alone (no `@testable`): two
/// containers of one account converge through `SimulatedCloudKit`, and the status says when the
/// account is signed out.
@Suite struct CloudKitPublicAPITests {
  @Test func twoContainersOfOneAccountSyncWithThePublicAPIAlone() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cloudkit-public-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let cloud = SimulatedCloudKit()
    let phone = cloud.device(signedInAs: "family")
    func open(_ name: String, _ carrier: SyncCarrier) throws -> StoreContainer {
      var options = StoreOptions(author: name, clock: { cloud.now }, watchesOtherProcesses: false)
      options.carrier = carrier
      return try StoreContainer.file(at: folder.appendingPathComponent(name + ".store"), schema: TestSchema.v1, options: options)
    }
    let mum = try open("mum", .simulatedCloudKit(phone))
    let dad = try open("dad", .simulatedCloudKit(cloud, account: "family"))
    let context = mum.newBackgroundContext()
    context.insert(Owner(id: UUID(), name: "Mia"))
    try context.save()
    try mum.sync()
    try dad.sync(.foreground)
    #expect(try dad.newBackgroundContext().fetch(FetchDescriptor<Owner>()).map(\.name) == ["Mia"])

    phone.signOut()
    #expect(try mum.syncStatus()?.carrier == .unavailable(.signedOut))
  }
}
