import BabyDashboardTesting
import Foundation
import Testing

@testable import PlainStore

/// Seeded runs of two and three devices over simulated iCloud Drive containers: each device's
/// container gets the others' files as placeholders, late and in random order, downloads only
/// what its store asked for, evicts downloaded files at random (the device's own too), and
/// carries the deletions of a device's change compaction late. After every run: every device ends with the same data once
/// everything is downloaded, nothing a save acknowledged is lost, and every device's cache
/// equals a rebuild of its files. 300 seeds, in four parts that run side by side; a failing seed
/// is named, so it replays.
@Suite struct SimulatedICloudRunTests {
  /// One device: its store over its own simulated container.
  final class Device {
    let number: Int
    let id: DeviceID
    let store: URL
    let cloud = SimulatedUbiquityContainer()
    let options: StoreOptions
    private var open: StoreContainer?

    init(_ root: URL, _ number: Int) {
      self.number = number
      id = testDevice(0xc000 + number)
      store = root.appendingPathComponent("device\(number).store")
      var options = StoreOptions(
        author: "device\(number)", clock: { Sample.epoch }, watchesOtherProcesses: false, deviceID: id.text,
        deviceName: "device \(number)", changeCompactionThreshold: 0)
      options.transport = cloud.transport
      options.downloadWait = .zero  // the run finishes downloads itself, between steps
      self.options = options
    }

    var changes: URL { store.appendingPathComponent("changes") }

    func container() throws -> StoreContainer {
      if let open { return open }
      let container = try StoreContainer.file(at: store, schema: TestSchema.v1, options: options)
      open = container
      return container
    }

    func close() { open = nil }

    /// Every file of its own, evicted ones included: what the cloud has of it.
    func ownFiles() -> [String] {
      let listing = FolderTransport().list(changes.appendingPathComponent(id.text).path)
      return (listing.arrived.filter { !$0.hasPrefix(".") } + listing.notDownloaded).sorted()
    }

    /// Every real file in its folder of `changes/` that could be evicted.
    func downloadedFiles() -> [String] {
      var paths: [String] = []
      for device in (try? FileManager.default.contentsOfDirectory(atPath: changes.path)) ?? [] {
        let folder = changes.appendingPathComponent(device)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where !name.hasPrefix(".") {
          paths.append(folder.appendingPathComponent(name).path)
        }
      }
      return paths.sorted()
    }

    func dump() throws -> [String] {
      let context = try container().newBackgroundContext()
      return try context.fetch(FetchDescriptor<Owner>()).map { "\($0.id) \($0.name) \($0.note ?? "-")" }.sorted()
    }

    /// Asks for everything until nothing is left to download, merging as it comes.
    func downloadEverything() throws {
      for _ in 0..<10 {
        _ = try container().sync()
        for path in (try container().syncStatus()?.notDownloaded ?? []) {
          try cloud.startDownloading(store.deletingLastPathComponent().appendingPathComponent(path))
        }
        if try cloud.finishDownloads() == 0 { break }
      }
      _ = try container().sync()
    }
  }

  static let seedsPerPart: UInt64 = 75

  @Test(arguments: 0..<UInt64(4))
  func everyRunEndsWithTheSameDataOnEveryDeviceAndNothingLost(part: UInt64) async throws {
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
    var random = SplitMix64(seed: seed)
    let devices = (1...(seed % 2 == 0 ? 2 : 3)).map { Device(scratch.url, $0) }
    var saved: Set<UUID> = []
    var delivered: [Int: Set<String>] = [:]  // per device, the other devices' files it has been given
    for step in 0..<30 {
      let device = devices[Int.random(in: 0..<devices.count, using: &random)]
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
      case 4..<6:  // some of the other devices' files reach this one, as placeholders
        for other in devices where other !== device {
          // What the other deleted (its compaction) goes here too, placeholder or file.
          let others = Set(other.ownFiles())
          for key in delivered[device.number, default: []] where key.hasPrefix(other.id.text + "/") {
            let name = String(key.dropFirst(other.id.text.count + 1))
            guard !others.contains(name) else { continue }
            device.cloud.delete(device.changes.appendingPathComponent(key).path)
            delivered[device.number, default: []].remove(key)
          }
          for name in other.ownFiles() where Bool.random(using: &random) {
            let key = other.id.text + "/" + name
            guard !delivered[device.number, default: []].contains(key) else { continue }
            let source = other.changes.appendingPathComponent(other.id.text).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: source.path) ?? other.cloudCopy(name) else { continue }
            try device.cloud.arrive(data, at: device.changes.appendingPathComponent(key).path)
            delivered[device.number, default: []].insert(key)
          }
        }
      case 6:  // iOS frees space: any downloaded file goes, this device's own included
        let files = device.downloadedFiles()
        if !files.isEmpty { try device.cloud.evict(files[Int.random(in: 0..<files.count, using: &random)]) }
      case 7:  // downloads asked for finish, and the metadata query reports them
        try device.cloud.finishDownloads()
        _ = try device.container().sync()
      case 8:  // the app asks the store what arrived, or compacts its change files
        if Bool.random(using: &random) {
          _ = try device.container().sync()
        } else {
          _ = try device.container().compactChanges()
        }
      default:  // the app is quit and opened again
        device.close()
      }
    }
    // Everything reaches everyone, and is downloaded.
    for device in devices {
      for other in devices where other !== device {
        for name in other.ownFiles() {
          let key = other.id.text + "/" + name
          guard !delivered[device.number, default: []].contains(key) else { continue }
          let source = other.changes.appendingPathComponent(other.id.text).appendingPathComponent(name)
          guard let data = FileManager.default.contents(atPath: source.path) ?? other.cloudCopy(name) else { continue }
          try device.cloud.arrive(data, at: device.changes.appendingPathComponent(key).path)
        }
      }
      try device.downloadEverything()
    }
    let expected = try devices[0].dump()
    for device in devices {
      let dump = try device.dump()
      guard dump == expected else { throw RunFailure(description: "device \(device.number) differs: \(dump) vs \(expected)") }
      let ids = Set(dump.compactMap { UUID(uuidString: String($0.prefix(36))) })
      guard saved.isSubset(of: ids) else { throw RunFailure(description: "device \(device.number) lost \(saved.subtracting(ids))") }
      // The cache is what a rebuild of its files makes.
      device.close()
      try FileManager.default.removeItem(at: device.store.appendingPathComponent("local"))
      try device.downloadEverything()
      guard try device.dump() == dump else { throw RunFailure(description: "device \(device.number)'s rebuild differs from its cache") }
    }
  }
}

extension SimulatedICloudRunTests.Device {
  /// The bytes of one of this device's own files that iOS evicted here: the cloud has them.
  func cloudCopy(_ name: String) -> Data? {
    cloud.cloudBytes(atPath: changes.appendingPathComponent(id.text).appendingPathComponent(name).path)
  }
}
