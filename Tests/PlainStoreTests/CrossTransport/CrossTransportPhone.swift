import BabyDashboard
import Foundation

@testable import PlainStore

/// One phone of a cross-transport run: a BabyDashboard store on one carrier, under a fixed
/// device id, on the run's clock.
struct CrossTransportPhone {
  let number: Int
  let id: String
  let store: URL
  let container: StoreContainer

  init(_ number: Int, in folder: URL, world: CrossTransportCarrier.World, clock: @escaping @Sendable () -> Date) throws {
    self.number = number
    id = testDevice(0xd0 + number).text
    store = folder.appendingPathComponent("phone\(number)/BabyDashboard.store")
    try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
    var options = StoreOptions(author: "phone\(number)", clock: clock, watchesOtherProcesses: false, deviceID: id, deviceName: "phone \(number)")
    world.configure(&options, phone: number)
    container = try StoreContainer.file(at: store, schema: BabyDashboardSchema.current, options: options)
  }

  var changes: URL { store.appendingPathComponent("changes") }
  var ownFolder: URL { changes.appendingPathComponent(id) }

  /// The files this phone wrote, temporary files left out.
  func ownFiles() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: ownFolder.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
  }

  /// What `babydash export` prints for this phone's store.
  func export() throws -> Data {
    try Backup(context: container.newBackgroundContext(), cache: nil).encoded()
  }
}
