import Foundation
import PlainStoreTesting

@testable import PlainStore

/// Phones of a family, each a file store in one scratch folder, syncing through one simulated
/// CloudKit; their clocks are the cloud's.
struct CloudFamily {
  let scratch: ScratchFolder
  let cloud: SimulatedCloudKit

  init(cloud: SimulatedCloudKit = SimulatedCloudKit()) throws {
    scratch = try ScratchFolder()
    self.cloud = cloud
  }

  func remove() { scratch.remove() }

  /// Phone `number`'s store folder.
  func store(_ number: Int) -> URL { scratch.url.appendingPathComponent("phone\(number).store") }

  /// Phone `number` on `device` (or a device signed in to `account`; or `carrier`), under
  /// device id `id` (by default its own).
  func open(
    _ number: Int, account: String = "family", device: SimulatedCloudKit.Device? = nil, id: Int? = nil, carrier: SyncCarrier? = nil
  ) throws -> StoreContainer {
    let cloud = cloud
    var options = StoreOptions(
      author: "phone\(number)", clock: { cloud.now }, watchesOtherProcesses: false, deviceID: testDevice(0xc0 + (id ?? number)).text,
      deviceName: "phone \(number)")
    options.carrier = carrier ?? .simulatedCloudKit(device ?? cloud.device(signedInAs: account))
    return try StoreContainer.file(at: store(number), schema: TestSchema.v1, options: options)
  }

  /// Phones 1 and 2 of `account`.
  func pair(account: String = "family") throws -> (StoreContainer, StoreContainer) {
    (try open(1, account: account), try open(2, account: account))
  }

  /// Phone 1 on a device of its own, signed in to the family, for a test to sign out or switch.
  func openOnItsOwnDevice() throws -> (StoreContainer, SimulatedCloudKit.Device) {
    let device = cloud.device(signedInAs: "family")
    return (try open(1, device: device), device)
  }

  /// Phones 1 and 2 after Mia was saved on one, Noah on two, and a sync round: both hold both.
  func pairHoldingMiaAndNoah() throws -> (StoreContainer, StoreContainer) {
    let (one, two) = try pair()
    try one.add(1, "Mia")
    try two.add(2, "Noah")
    try syncInTurn(one, two, one)
    return (one, two)
  }

  /// Phone `number`, new to the family, after its first sync: what a phone joining now shows.
  func joined(_ number: Int) throws -> StoreContainer {
    let phone = try open(number)
    try phone.sync()
    return phone
  }

  /// Every file of phone `number`'s `changes/`, as "device/name", with its bytes.
  func files(_ number: Int) throws -> [String: Data] {
    let changes = store(number).appendingPathComponent("changes")
    var found: [String: Data] = [:]
    for device in (try? FileManager.default.contentsOfDirectory(atPath: changes.path)) ?? [] where !device.hasPrefix(".") {
      let folder = changes.appendingPathComponent(device)
      for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasPrefix(".") {
        found[device + "/" + name] = try Data(contentsOf: folder.appendingPathComponent(name))
      }
    }
    return found
  }
}

/// Each phone syncs once, in the order given: what one sends, those after it fetch.
func syncInTurn(_ phones: StoreContainer...) throws {
  for phone in phones { try phone.sync() }
}

extension StoreContainer {
  func add(_ id: Int, _ name: String) throws {
    let context = newBackgroundContext()
    context.insert(Owner(id: Sample.id(id), name: name))
    try context.save()
  }

  func remove(_ id: Int) throws {
    let context = newBackgroundContext()
    context.delete(Owner.self, id: Sample.id(id))
    try context.save()
  }

  func names() throws -> [String] {
    try newBackgroundContext().fetch(FetchDescriptor<Owner>()).map(\.name).sorted()
  }
}
