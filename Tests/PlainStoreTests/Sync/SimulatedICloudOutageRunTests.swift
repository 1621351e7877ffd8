import BabyDashboardTesting
import Foundation
import Testing

@testable import PlainStore

/// Seeded runs of two and three devices whose iCloud containers come and go: a device signs out
/// and in (for any reason the carrier gives), switches to another account and back, saves all
/// the while, and gets the others' files only while its container is there and its own
/// account's. After every step, the acting device's cache equals a rebuild of its files — the
/// app group, the outbox and the container — and a device signed in to another account has not
/// touched its container; after the run, with every device back and a full exchange, every
/// device shows the same data and nothing a save acknowledged is lost. 100 seeds, in four parts.
@Suite struct SimulatedICloudOutageRunTests {
  static let family = Data("family account".utf8)
  static let other = Data("another account".utf8)

  final class Device {
    let number: Int
    let id: DeviceID
    let store: URL
    let cloud = SimulatedUbiquityContainer()
    let options: StoreOptions
    private var open: StoreContainer?

    init(_ root: URL, _ number: Int) {
      self.number = number
      id = testDevice(0xd000 + number)
      store = root.appendingPathComponent("device\(number).store")
      var options = StoreOptions(
        author: "device\(number)", clock: { Sample.epoch }, watchesOtherProcesses: false, deviceID: id.text,
        deviceName: "device \(number)", changeCompactionThreshold: 0)
      options.transport = cloud.transport
      self.options = options
      cloud.switchAccount(to: SimulatedICloudOutageRunTests.family)
    }

    /// Opened once signed in to the family's account, which the store records as its own.
    func start() throws {
      _ = try container()
      guard FileManager.default.fileExists(atPath: store.appendingPathComponent("sync-account").path) else {
        throw RunFailure(description: "device \(number) recorded no account")
      }
    }

    var changes: URL { store.appendingPathComponent("changes") }
    var isSyncing: Bool { cloud.isAvailable && cloud.accountIdentity == SimulatedICloudOutageRunTests.family }

    func container() throws -> StoreContainer {
      if let open { return open }
      let container = try StoreContainer.file(at: store, schema: TestSchema.v1, options: options)
      open = container
      return container
    }

    func close() { open = nil }

    func dump(_ container: StoreContainer) throws -> [String] {
      try container.newBackgroundContext().fetch(FetchDescriptor<Owner>()).map { "\($0.id) \($0.name) \($0.note ?? "-")" }.sorted()
    }

    /// Its own files in its container, as "<device>/<name>" (every id it has written under).
    func containerFiles() -> [String] {
      var keys: [String] = []
      for device in (try? FileManager.default.contentsOfDirectory(atPath: changes.path)) ?? [] {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: changes.appendingPathComponent(device).path)) ?? []
        where !name.hasPrefix(".") {
          keys.append(device + "/" + name)
        }
      }
      return keys.sorted()
    }

    /// The files it wrote itself and that are in its container: what the others may get.
    func ownContainerFiles(written: Set<String>) -> [String] {
      containerFiles().filter { written.contains(String($0.prefix(32))) }
    }

    /// What a rebuild of its files makes: the store folder copied without `local/` (the app
    /// group's files, the outbox, the container), opened with a plain folder.
    func rebuiltDump(in scratch: URL) throws -> [String] {
      let copy = scratch.appendingPathComponent("rebuild-\(number).store")
      try? FileManager.default.removeItem(at: copy)
      try FileManager.default.copyItem(at: store, to: copy)
      try FileManager.default.removeItem(at: copy.appendingPathComponent("local"))
      defer { try? FileManager.default.removeItem(at: copy) }
      let options = StoreOptions(author: "check", clock: { Sample.epoch }, watchesOtherProcesses: false, changeCompactionThreshold: 0)
      return try dump(try StoreContainer.file(at: copy, schema: TestSchema.v1, options: options))
    }
  }

  static let seedsPerPart: UInt64 = 25

  @Test(arguments: 0..<UInt64(4))
  func everyStepsCacheIsARebuildOfItsFilesAndEveryDeviceEndsWithTheSameData(part: UInt64) async throws {
    let failures = try await onOwnThread(computing: true) { () throws -> [String] in
      var failures: [String] = []
      for seed in (part * Self.seedsPerPart)..<((part + 1) * Self.seedsPerPart) {
        do {
          try Self.run(seed: seed)
        } catch {
          failures.append("seed \(seed): \(error)")
        }
      }
      return failures
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }

  struct RunFailure: Error, CustomStringConvertible {
    var description: String
  }

  static func run(seed: UInt64) throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    var random = SplitMix64(seed: 0x0_07A6E + seed)
    let devices = (1...(seed % 2 == 0 ? 2 : 3)).map { Device(scratch.url, $0) }
    for device in devices { try device.start() }
    var saved: Set<UUID> = []
    var written: [Int: Set<String>] = [:]  // per device, the ids it wrote under
    var delivered: [Int: Set<String>] = [:]  // per device, the others' files it has been given
    let reasons: [SyncStatus.UnavailableReason] = [.signedOut, .driveOff, .notResolvedYet]

    func deliver(to device: Device, everything: Bool) throws {
      for other in devices where other !== device {
        for key in other.ownContainerFiles(written: written[other.number] ?? []) where everything || Bool.random(using: &random) {
          guard !delivered[device.number, default: []].contains(key) else { continue }
          let target = device.changes.appendingPathComponent(key)
          try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
          try FileManager.default.copyItem(at: other.changes.appendingPathComponent(key), to: target)
          delivered[device.number, default: []].insert(key)
        }
      }
      _ = try device.container().sync()  // merged as it lands: the cache stays a rebuild of the files
    }

    for step in 0..<25 {
      let device = devices[Int.random(in: 0..<devices.count, using: &random)]
      let switched = !device.isSyncing && device.cloud.isAvailable
      let touches = device.cloud.touches
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<4:  // a save: a new baby, or a note on one this device shows
        let context = try device.container().newBackgroundContext()
        let shown = try context.fetch(FetchDescriptor<Owner>())
        if shown.isEmpty || Bool.random(using: &random) {
          let id = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012llx", seed * 1_000 + UInt64(step)))!
          context.insert(Owner(id: id, name: "baby \(seed)-\(step)"))
          try context.save()
          saved.insert(id)
        } else {
          var owner = shown[Int.random(in: 0..<shown.count, using: &random)]
          owner.note = "note \(step) by \(device.number)"
          context.insert(owner)
          try context.save()
        }
        if let this = try device.container().syncStatus()?.thisDevice { written[device.number, default: []].insert(this) }
      case 4..<6:  // the others' files reach it, while its container is there and its account's
        if device.isSyncing { try deliver(to: device, everything: false) }
      case 6:  // signs out (for some reason), or back in
        if device.cloud.isAvailable {
          device.cloud.setAvailable(false, reason: reasons[Int.random(in: 0..<reasons.count, using: &random)])
        } else {
          device.cloud.setAvailable(true)
        }
        if Bool.random(using: &random) { _ = try device.container().sync() }
      case 7:  // signs in to another account, or back to the family's
        device.cloud.switchAccount(to: device.cloud.accountIdentity == Self.family ? Self.other : Self.family)
        if Bool.random(using: &random) { _ = try device.container().sync() }
      case 8:
        _ = try device.container().sync()
      default:  // the app is quit and opened again
        device.close()
      }
      if switched && !device.isSyncing && device.cloud.isAvailable && device.cloud.touches != touches {
        throw RunFailure(description: "step \(step): device \(device.number) touched another account's container: \(device.cloud.touchLog.dropFirst(touches))")
      }
      let cache = try device.dump(try device.container())
      let rebuilt = try device.rebuiltDump(in: scratch.url)
      guard cache == rebuilt else {
        throw RunFailure(description: "step \(step): device \(device.number)'s cache \(cache) is not a rebuild of its files \(rebuilt)")
      }
    }
    // Everyone back on the family's account; a full exchange.
    for device in devices {
      device.cloud.setAvailable(true)
      device.cloud.switchAccount(to: Self.family)
      _ = try device.container().sync()  // the outbox moves
    }
    for device in devices { try deliver(to: device, everything: true) }
    let expected = try devices[0].dump(try devices[0].container())
    for device in devices {
      let dump = try device.dump(try device.container())
      guard dump == expected else { throw RunFailure(description: "device \(device.number) differs: \(dump) vs \(expected)") }
      let ids = Set(dump.compactMap { UUID(uuidString: String($0.prefix(36))) })
      guard saved.isSubset(of: ids) else { throw RunFailure(description: "device \(device.number) lost \(saved.subtracting(ids))") }
      guard !FileManager.default.fileExists(atPath: device.store.appendingPathComponent("outbox").path) else {
        throw RunFailure(description: "device \(device.number)'s outbox did not move")
      }
      guard try device.rebuiltDump(in: scratch.url) == dump else {
        throw RunFailure(description: "device \(device.number)'s rebuild differs from its cache")
      }
    }
  }
}
