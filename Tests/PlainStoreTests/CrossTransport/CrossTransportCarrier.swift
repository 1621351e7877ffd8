import Foundation
import PlainStoreTesting

@testable import PlainStore

/// The three ways a cross-transport run's phones exchange their change files, each the engine's
/// own carrier over a simulation of the service: a plain folder an engine copies (Syncthing,
/// Dropbox), iCloud Drive (files arrive as placeholders and are downloaded when asked for), and
/// CloudKit (records in a zone, fetched with change tokens, one fetch in three delivered badly).
enum CrossTransportCarrier: String, CaseIterable, Sendable {
  case folder, iCloudDrive, cloudKit

  /// One run's service, shared by its phones.
  final class World {
    let carrier: CrossTransportCarrier
    let cloudKit = SimulatedCloudKit(requestLimit: 7, fetchBatchSize: 5)
    /// Per phone, its own ubiquity container (iCloud Drive).
    var ubiquity: [Int: SimulatedUbiquityContainer] = [:]
    /// Per phone, the other phones' files already given to it, with the bytes given.
    var given: [Int: [String: Data]] = [:]
    /// Decides the CloudKit deliveries: apart from the run's own random, which every carrier
    /// must draw from alike for the runs to make the same saves.
    var faults: SplitMix64

    init(_ carrier: CrossTransportCarrier, seed: UInt64) {
      self.carrier = carrier
      faults = SplitMix64(seed: seed ^ 0x5eed)
    }

    /// Phone `number`'s options on this carrier.
    func configure(_ options: inout StoreOptions, phone number: Int) {
      switch carrier {
      case .folder: options.carrier = .folder
      case .iCloudDrive:
        let cloud = ubiquity[number] ?? SimulatedUbiquityContainer()
        ubiquity[number] = cloud
        options.transport = cloud.transport
        options.downloadWait = .zero  // the exchange finishes downloads itself
      case .cloudKit: options.carrier = .simulatedCloudKit(cloudKit, account: "family")
      }
    }

    /// Everything each phone wrote reaches every other, and each merges it.
    func exchange(_ phones: [CrossTransportPhone]) throws {
      switch carrier {
      case .folder:
        try give(phones) { phone, data, path in try DurableFile.write(data, to: URL(fileURLWithPath: path)) }
        for phone in phones { _ = try phone.container.sync() }
      case .iCloudDrive:
        try give(phones) { phone, data, path in try self.ubiquity[phone.number]!.arrive(data, at: path) }
        for phone in phones { try downloadEverything(phone) }
      case .cloudKit:
        if Int.random(in: 0..<3, using: &faults) == 0 {
          cloudKit.deliverNextFetch([.late, .twice, .outOfOrder, .dropped][Int.random(in: 0..<4, using: &faults)])
        }
        // Each sends, then fetches what those before it sent: two rounds carry everything,
        // a fetch delivered late or dropped included.
        for _ in 0..<2 { for phone in phones { _ = try phone.container.sync() } }
      }
    }

    /// Every file of each phone's own folder that another phone lacks, as its engine delivers it.
    private func give(_ phones: [CrossTransportPhone], _ deliver: (CrossTransportPhone, Data, String) throws -> Void) throws {
      for from in phones {
        for name in from.ownFiles() {
          let data = try Data(contentsOf: from.ownFolder.appendingPathComponent(name))
          for to in phones where to.number != from.number {
            let key = from.id + "/" + name
            guard given[to.number, default: [:]][key] != data else { continue }
            let path = to.changes.appendingPathComponent(key).path
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try deliver(to, data, path)
            given[to.number, default: [:]][key] = data
          }
        }
      }
    }

    /// Asks for every placeholder until nothing is left to download, merging as it comes.
    private func downloadEverything(_ phone: CrossTransportPhone) throws {
      let cloud = ubiquity[phone.number]!
      for _ in 0..<10 {
        _ = try phone.container.sync()
        for path in try phone.container.syncStatus()?.notDownloaded ?? [] {
          try cloud.startDownloading(phone.store.deletingLastPathComponent().appendingPathComponent(path))
        }
        if try cloud.finishDownloads() == 0 { break }
      }
      _ = try phone.container.sync()
    }
  }
}
