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

  /// Phone `number` on `device` (or a device signed in to `account`), under device id `id`
  /// (by default its own).
  func open(_ number: Int, account: String = "family", device: SimulatedCloudKit.Device? = nil, id: Int? = nil) throws -> StoreContainer {
    let cloud = cloud
    var options = StoreOptions(
      author: "phone\(number)", clock: { cloud.now }, watchesOtherProcesses: false, deviceID: testDevice(0xc0 + (id ?? number)).text,
      deviceName: "phone \(number)")
    options.carrier = .simulatedCloudKit(device ?? cloud.device(signedInAs: account))
    return try StoreContainer.file(at: store(number), schema: TestSchema.v1, options: options)
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

extension StoreContainer {
  func add(_ id: Int, _ name: String) throws {
    let context = newBackgroundContext()
    context.insert(Owner(id: Sample.id(id), name: name))
    try context.save()
  }

  func names() throws -> [String] {
    try newBackgroundContext().fetch(FetchDescriptor<Owner>()).map(\.name).sorted()
  }
}
