import Foundation

/// Which change files a cache has folded in: per device, its sequence numbers as ranges (a
/// device's changes arrive mostly in order, so a few ranges cover thousands of files), and the
/// newest clock stamp among them, from which this device's clock goes on.
struct FoldedChanges: Codable, Equatable, Sendable {
  private(set) var sequences: [DeviceID: IndexSet] = [:]
  private(set) var newestClock: UInt64 = 0
  /// Folded changes that share their device and sequence with another (see
  /// `ChangeScan.divergent`): the sequence alone cannot tell them apart.
  private(set) var divergent: Set<ChangeStamp> = []
  /// Per device, the newest of its snapshots folded in: a reader need not open it, or an older
  /// one, again (a device's newer snapshot holds everything its older ones did).
  private(set) var snapshots: [DeviceID: Int] = [:]
  /// Folded snapshots that share their device and number with another (see
  /// `ChangeScan.divergentSnapshots`): the number alone cannot tell them apart.
  private(set) var divergentSnapshots: Set<ChangeStamp> = []

  func contains(snapshot number: Int, of device: DeviceID) -> Bool { number <= snapshots[device] ?? 0 }

  mutating func insert(snapshot number: Int, of device: DeviceID) {
    snapshots[device] = max(snapshots[device] ?? 0, number)
  }

  mutating func insert(divergentSnapshot stamp: ChangeStamp) {
    insert(snapshot: stamp.sequence, of: stamp.device)
    divergentSnapshots.insert(stamp)
  }

  init() {}

  func contains(device: DeviceID, sequence: Int) -> Bool {
    sequences[device]?.contains(sequence) ?? false
  }

  /// Whether a change file read from the folder is still to be folded: its sequence is not, or
  /// it is a second change under a folded sequence (in the scan's `divergent`) not folded itself.
  /// A change under a sequence with a conflict copy is read at every scan, folded or not.
  func awaits(_ change: ChangeFile, divergent: Set<ChangeStamp>) -> Bool {
    !contains(device: change.device, sequence: change.sequence) || (divergent.contains(change.stamp) && !self.divergent.contains(change.stamp))
  }

  /// Whether no change file and no snapshot has been folded.
  var isEmpty: Bool { sequences.isEmpty && snapshots.isEmpty }

  /// The highest sequence folded of `device` (0: none).
  func newest(of device: DeviceID) -> Int { sequences[device]?.last ?? 0 }

  mutating func insert(_ stamp: ChangeStamp) {
    sequences[stamp.device, default: IndexSet()].insert(stamp.sequence)
    newestClock = max(newestClock, stamp.hlc)
  }

  /// Records a change that shares its device and sequence with another.
  mutating func insert(divergent stamp: ChangeStamp) {
    insert(stamp)
    divergent.insert(stamp)
  }

  /// Records every change of `device` up to `sequence` (what a snapshot covers), with the
  /// snapshot's clock stamp.
  mutating func insert(device: DeviceID, through sequence: Int, hlc: UInt64) {
    guard sequence > 0 else { return }
    sequences[device, default: IndexSet()].insert(integersIn: 1...sequence)
    newestClock = max(newestClock, hlc)
  }

  /// Whether every change of `device` up to `sequence` is folded.
  func contains(device: DeviceID, through sequence: Int) -> Bool {
    sequence <= 0 || sequences[device]?.contains(integersIn: 1...sequence) == true
  }

  // {"clock":"<hlc>","devices":{"<device>":[[first,last],…]},"divergent":[stamp,…],
  //  "divergentSnapshots":[stamp,…],"snapshots":{"<device>":number}}: deterministic, and small.
  enum CodingKeys: String, CodingKey { case clock, devices, divergent, divergentSnapshots, snapshots }

  init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    newestClock = try container.decodeClock(forKey: .clock)
    for (text, ranges) in try container.decode([String: [[Int]]].self, forKey: .devices) {
      let device = try container.deviceID(text, forKey: .devices)
      var set = IndexSet()
      for range in ranges {
        guard range.count == 2, range[0] >= 1, range[0] <= range[1] else {
          throw DecodingError.dataCorruptedError(forKey: .devices, in: container, debugDescription: "\(range) is not a range of sequences.")
        }
        set.insert(integersIn: range[0]...range[1])
      }
      sequences[device] = set
    }
    divergent = Set(try container.decodeIfPresent([ChangeStamp].self, forKey: .divergent) ?? [])
    divergentSnapshots = Set(try container.decodeIfPresent([ChangeStamp].self, forKey: .divergentSnapshots) ?? [])
    for (text, number) in try container.decodeIfPresent([String: Int].self, forKey: .snapshots) ?? [:] {
      snapshots[try container.deviceID(text, forKey: .snapshots)] = number
    }
  }

  func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(HybridLogicalClock.text(newestClock), forKey: .clock)
    var devices: [String: [[Int]]] = [:]
    for (device, set) in sequences {
      devices[device.text] = set.rangeView.map { [$0.lowerBound, $0.upperBound - 1] }
    }
    try container.encode(devices, forKey: .devices)
    if !divergent.isEmpty { try container.encode(divergent.sorted(), forKey: .divergent) }
    if !divergentSnapshots.isEmpty { try container.encode(divergentSnapshots.sorted(), forKey: .divergentSnapshots) }
    if !snapshots.isEmpty {
      try container.encode(Dictionary(uniqueKeysWithValues: snapshots.map { ($0.key.text, $0.value) }), forKey: .snapshots)
    }
  }
}
