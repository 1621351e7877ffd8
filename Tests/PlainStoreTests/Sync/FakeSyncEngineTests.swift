import BabyDashboardTesting
import Foundation
import Testing

@testable import PlainStore

/// Devices that write change files and a fake sync engine that carries them between the
/// devices' folders the way real engines do: in random order, late, as conflict copies, with
/// temporary files left behind and files that arrive truncated and complete later.
@Suite struct FakeSyncEngineTests {
  /// One device: its folder of `changes/`, what it has merged, and its clock.
  struct Device {
    let id: DeviceID
    let folder: ChangeFolder
    var state = MergedState(schema: SyncTestSchema.merge)
    /// What the device has merged, as a cache records it.
    var folded = FoldedChanges()
    var clock = HybridLogicalClock()
    var sequence = 0
    var written: [ChangeFile] = []

    /// Reads what has arrived, as the store does before every read or write.
    mutating func sync() throws {
      let scan = try folder.scan(own: id, known: folded)
      for file in scan.files {
        state.apply(file)
        folded.insert(file.stamp)
        clock.observe(file.hlc)
      }
    }

    mutating func commit(_ objects: [ObjectChange], now: Date) throws {
      sequence += 1
      let change = ChangeFile(
        device: id, sequence: sequence, hlc: clock.tick(now: now), author: "device", timestamp: now, schemaVersion: 1, objects: objects)
      try folder.write(change)
      state.apply(change)
      folded.insert(change.stamp)
      written.append(change)
    }
  }

  /// A file on its way from one device's folder to another's.
  struct Delivery {
    var from: Int
    var to: Int
    var device: DeviceID
    var name: String
    var data: Data
    var truncatedFirst: Bool
  }

  /// 1000 seeded runs, in four parts that run side by side.
  static let runsPerPart: UInt64 = 250

  @Test(arguments: 0..<UInt64(4))
  func everyRunConvergesToByteIdenticalStateOnEveryDevice(part: UInt64) async throws {
    let tests = self
    let failures = try await onOwnThread(computing: true) { () throws -> [UInt64] in
      let scratch = try ScratchFolder()
      defer { scratch.remove() }
      var failures: [UInt64] = []
      for seed in (part * Self.runsPerPart)..<((part + 1) * Self.runsPerPart) {
        if try !tests.run(seed: seed, in: scratch.url.appendingPathComponent("run-\(seed)")) { failures.append(seed) }
        if failures.count > 3 { break }
      }
      return failures
    }
    #expect(failures.isEmpty, "runs that did not converge (seeds): \(failures)")
  }

  /// One seeded run; true when every device ends with the same bytes as a direct fold of all
  /// files, and the documented rules hold.
  func run(seed: UInt64, in root: URL) throws -> Bool {
    defer { try? FileManager.default.removeItem(at: root) }
    var random = SplitMix64(seed: seed)
    let deviceCount = 2 + Int(seed % 2)
    var devices = try (0..<deviceCount).map { index in
      try FileManager.default.createDirectory(at: root.appendingPathComponent("device\(index)"), withIntermediateDirectories: true)
      return Device(
        id: DeviceID.mint(),
        folder: ChangeFolder(url: root.appendingPathComponent("device\(index)/changes"), displayName: "device\(index)/changes"))
    }
    var inFlight: [Delivery] = []
    var truncated: [Delivery] = []
    let babies = (1...3).map { testID(Int(seed) * 100 + $0) }
    let starts = (0..<4).map { rawString("2026-03-10T0\($0):00:00.000Z") }
    var clockSkew = (0..<deviceCount).map { _ in Double(Int.random(in: -5...5, using: &random)) }
    var now = 1_773_100_000.0

    for step in 0..<(6 + Int.random(in: 0...10, using: &random)) {
      now += Double.random(in: 0...3, using: &random)
      let writer = Int.random(in: 0..<deviceCount, using: &random)
      let objects = randomChange(step: step, device: devices[writer], babies: babies, starts: starts, random: &random)
      clockSkew[writer] += Double.random(in: -1...1, using: &random)
      try devices[writer].commit(objects, now: Date(timeIntervalSince1970: now + clockSkew[writer]))
      let written = devices[writer].written.last!
      let data = try ChangeFileCodec.encode(written)
      for other in 0..<deviceCount where other != writer {
        inFlight.append(
          Delivery(from: writer, to: other, device: written.device, name: written.fileName, data: data, truncatedFirst: Bool.random(using: &random)))
      }
      // The engine delivers a random part of what is in flight, in random order.
      inFlight.shuffle(using: &random)
      let count = Int.random(in: 0...inFlight.count, using: &random)
      for delivery in inFlight.prefix(count) {
        try deliver(delivery, devices: devices, truncated: &truncated, random: &random)
      }
      inFlight.removeFirst(count)
      // Files that arrived truncated complete later.
      if Bool.random(using: &random), !truncated.isEmpty {
        let done = truncated.removeFirst()
        try write(done.data, devices[done.to], done.device, done.name)
      }
      let reader = Int.random(in: 0..<deviceCount, using: &random)
      try devices[reader].sync()
    }
    // Everything arrives in the end.
    for delivery in inFlight.shuffled(using: &random) {
      try deliver(delivery, devices: devices, truncated: &truncated, random: &random)
    }
    for delivery in truncated { try write(delivery.data, devices[delivery.to], delivery.device, delivery.name) }
    for index in devices.indices { try devices[index].sync() }

    var reference = MergedState(schema: SyncTestSchema.merge)
    for file in devices.flatMap(\.written).shuffled(using: &random) { reference.apply(file) }
    let expected = try reference.canonicalExport()
    for device in devices where try device.state.canonicalExport() != expected { return false }
    return rulesHold(reference, devices.flatMap(\.written))
  }

  /// Deletes win, amounts stay paired with their units, and no two feeds share a baby and start.
  func rulesHold(_ state: MergedState, _ files: [ChangeFile]) -> Bool {
    let live = state.materialize()
    let deleted = Set(files.flatMap { $0.objects.filter { $0.kind == .delete }.map(\.id) })
    for (_, objects) in live where objects.keys.contains(where: deleted.contains) { return false }
    var keys: Set<[RawJSON]> = []
    for fields in (live["Feed"] ?? [:]).values {
      let value = fields["amountValue"]?.description ?? "null"
      let unit = fields["amountUnitSymbol"]?.description ?? "null"
      if (value == "null") != (unit == "null") || (value != "null" && unit != "\"u\(value)\"") { return false }
      guard keys.insert([fields["profileID"] ?? .null, fields["startTime"] ?? .null]).inserted else { return false }
    }
    return true
  }

  /// A random transaction of the kinds parents make: a new baby, a feed (often one another
  /// device logs too), an edit of the same field on both sides, a delete against an edit.
  func randomChange(step: Int, device: Device, babies: [UUID], starts: [RawJSON], random: inout SplitMix64) -> [ObjectChange] {
    let view = device.state.materialize()
    let feeds = (view["Feed"] ?? [:]).keys.sorted { uuidPrecedes($0, $1) }
    let baby = babies.randomElement(using: &random)!
    switch Int.random(in: 0..<10, using: &random) {
    case 0, 1:
      return [ObjectChange(entity: "Baby", id: baby, kind: .upsert, fields: ["name": rawString("baby \(step)")])]
    case 2, 3, 4:
      let amount = Int.random(in: 1...200, using: &random)
      return [
        ObjectChange(
          entity: "Feed", id: UUID(), kind: .upsert,
          fields: [
            "profileID": rawID(baby), "startTime": starts.randomElement(using: &random)!, "endTime": .null,
            "amountValue": raw("\(amount)"), "amountUnitSymbol": rawString("u\(amount)"), "memoText": .null,
          ])
      ]
    case 5 where !feeds.isEmpty, 6 where !feeds.isEmpty:
      let amount = Int.random(in: 1...200, using: &random)
      return [
        ObjectChange(
          entity: "Feed", id: feeds.randomElement(using: &random)!, kind: .upsert,
          fields: ["amountValue": raw("\(amount)"), "amountUnitSymbol": rawString("u\(amount)"), "memoText": rawString("#edit\(step)")])
      ]
    case 7 where !feeds.isEmpty:
      return [ObjectChange(entity: "Feed", id: feeds.randomElement(using: &random)!, kind: .delete, fields: nil)]
    case 8:
      return [ObjectChange(entity: "Baby", id: baby, kind: .delete, fields: nil)]
    default:
      return [ObjectChange(entity: "Baby", id: baby, kind: .upsert, fields: ["name": rawString("renamed \(step)")])]
    }
  }

  func deliver(_ delivery: Delivery, devices: [Device], truncated: inout [Delivery], random: inout SplitMix64) throws {
    let device = devices[delivery.to]
    let folder = device.folder.deviceURL(delivery.device)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    // Leftovers of the engine's own writing.
    if Int.random(in: 0..<4, using: &random) == 0 {
      try Data("partial".utf8).write(to: folder.appendingPathComponent(".syncthing.\(delivery.name).tmp"))
      try Data().write(to: folder.appendingPathComponent("~syncthing~\(delivery.name).tmp"))
    }
    if delivery.truncatedFirst {
      let cut = Int.random(in: 0..<delivery.data.count, using: &random)
      try delivery.data.prefix(cut).write(to: folder.appendingPathComponent(delivery.name))
      truncated.append(delivery)
    } else {
      try write(delivery.data, device, delivery.device, delivery.name)
    }
    // Duplicates, named as each engine names its conflict copies.
    let stem = String(delivery.name.dropLast(5))
    switch Int.random(in: 0..<6, using: &random) {
    case 0: try delivery.data.write(to: folder.appendingPathComponent("\(stem).sync-conflict-20261123-150230-PI7EF2V.json"))
    case 1: try delivery.data.write(to: folder.appendingPathComponent("\(stem) (Dad's conflicted copy 2026-11-23).json"))
    case 2: try delivery.data.write(to: folder.appendingPathComponent("\(stem) 2.json"))
    default: break
    }
  }

  func write(_ data: Data, _ device: Device, _ owner: DeviceID, _ name: String) throws {
    let folder = device.folder.deviceURL(owner)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try data.write(to: folder.appendingPathComponent(name))
  }
}
