import Foundation
import PlainStore

/// The fake sync engine of a differential run: it carries the files of the devices' `changes/`
/// folders between them as Syncthing, Dropbox or iCloud Drive would, at the moments the run
/// chooses.
///
/// Each name has one version the engine carries (`published`): the first it saw whole, or the
/// winner when two devices wrote different files under one name (two copies of one store,
/// writing under the same device id and sequence). A device that holds another whole version
/// of a name when the carried one arrives keeps its own beside it as a conflict copy, named as
/// Syncthing (`NAME.sync-conflict-YYYYMMDD-HHMMSS-ID.json`), Dropbox (`NAME (WHO's conflicted
/// copy DATE).json`) or iCloud Drive (`NAME 2.json`) names it, and the copy travels like any
/// file. Deliveries go in random order; a partial exchange carries a random part of them, some
/// first truncated (completed by a later delivery), and some files arrive twice (the same bytes
/// written again) or also as a conflict copy of the same bytes. A deletion (change compaction)
/// reaches the devices that hold the deleted version, once the deleting device's snapshots in
/// that folder have reached them; a device that holds another version keeps it, and the engine
/// carries it again.
struct DifferentialEngine {
  /// Each live name's version, as the engine carries it.
  var published: [String: Data] = [:]
  /// Names a device deleted: the version it deleted, and which device.
  var deleted: [String: (data: Data, by: Int)] = [:]
  /// Per device, its whole files when the engine last looked.
  var seen: [[String: Data]] = []
  /// Files delivered truncated (`device|name`), completed by a later delivery.
  var truncated: Set<String> = []
  /// The name each conflict copy the engine made copies.
  var copyOf: [String: String] = [:]
  /// A number for each device folder, in the order the engine first met them: names are taken
  /// in that order, not by the device ids the stores mint at random, so a seed replays its run.
  var folders: [String: Int] = [:]
  var counts = Counts()

  /// What the engine did, over a run.
  struct Counts: Sendable {
    /// Names two devices wrote with different contents.
    var conflicts = 0
    /// Conflict copies that hold another version than their name's.
    var divergentCopies = 0
    /// Conflict copies of the same bytes.
    var repeatedCopies = 0
    /// Files written again, with the same bytes, onto a device that held them.
    var deliveredTwice = 0
    /// Files delivered truncated first.
    var truncated = 0

    static func += (total: inout Counts, run: Counts) {
      total.conflicts += run.conflicts
      total.divergentCopies += run.divergentCopies
      total.repeatedCopies += run.repeatedCopies
      total.deliveredTwice += run.deliveredTwice
      total.truncated += run.truncated
    }
  }

  func key(_ device: Int, _ name: String) -> String { "\(device)|\(name)" }

  /// One exchange; `partly`, a random part of it. Returns whether any device's files changed.
  mutating func exchange(_ devices: [DifferentialDevice], partly: Bool, now: Date, random: inout DifferentialRandom) throws -> Bool {
    while seen.count < devices.count { seen.append([:]) }
    look(at: devices, random: &random)
    var changed = false

    var deliveries: [(to: Int, name: String)] = []
    for name in inOrder(published.keys) {
      for to in devices.indices where devices[to].read(name) != published[name] { deliveries.append((to, name)) }
    }
    deliveries.shuffle(using: &random)
    if partly { deliveries = Array(deliveries.prefix(random.next(below: deliveries.count + 1))) }
    for (to, name) in deliveries {
      guard let data = published[name] else { continue }
      let device = devices[to]
      let held = device.read(name)
      guard held != data else { continue }
      let wasTruncated = truncated.remove(key(to, name)) != nil
      if let held, !wasTruncated {
        // Another version of this name, written here: kept beside the arriving one.
        let copy = conflictCopyName(of: name, on: device, now: now, random: &random)
        try device.put(held, at: copy)
        published[copy] = held
        copyOf[copy] = name
        counts.divergentCopies += 1
      }
      changed = true
      // Never into a folder of the device's own id: the store trusts its own files to be whole
      // (a damaged one is refused, naming it), and no engine writes a file in place (they
      // write a temporary file and rename it). Truncated files stand for what iCloud Drive
      // or a crashed engine may leave of other devices' files.
      if partly && random.next(below: 6) == 0 && data.count > 8 && !name.hasPrefix((device.deviceID ?? "-") + "/") {
        try device.put(data.prefix(data.count / 2), at: name)
        truncated.insert(key(to, name))
        counts.truncated += 1
        continue
      }
      try device.put(data, at: name)
      if random.next(below: 8) == 0, Self.isCanonical(name) {
        let copy = conflictCopyName(of: name, on: device, now: now, random: &random)
        try device.put(data, at: copy)
        published[copy] = data
        copyOf[copy] = name
        counts.repeatedCopies += 1
      }
    }
    // Files a device holds arrive again, the same bytes (an engine that lost its index).
    for index in devices.indices {
      for name in inOrder(devices[index].changeFiles()) where random.next(below: 40) == 0 {
        guard let data = published[name], devices[index].read(name) == data else { continue }
        try devices[index].put(data, at: name)
        counts.deliveredTwice += 1
      }
    }

    for name in inOrder(deleted.keys) {
      guard let tombstone = deleted[name] else { continue }
      let folder = String(name.prefix { $0 != "/" }) + "/"
      let snapshots = devices[tombstone.by].changeFiles().filter { $0.hasPrefix(folder) && $0.contains("/snapshot-") }
      for to in devices.indices where to != tombstone.by {
        guard let held = devices[to].read(name) else { continue }
        let isDeletedVersion = truncated.contains(key(to, name)) ? tombstone.data.starts(with: held) : held == tombstone.data
        guard isDeletedVersion, !partly || random.next(below: 2) == 0,
          snapshots.allSatisfy({ devices[to].read($0) == devices[tombstone.by].read($0) })
        else { continue }
        try devices[to].remove(name)
        truncated.remove(key(to, name))
        changed = true
      }
    }
    for index in devices.indices { seen[index] = wholeFiles(of: devices[index], index) }
    return changed
  }

  /// What each device did since the engine last looked: files it deleted, and versions it wrote.
  mutating func look(at devices: [DifferentialDevice], random: inout DifferentialRandom) {
    for (index, device) in devices.enumerated() {
      let now = wholeFiles(of: device, index)
      for folder in Set(now.keys.map(Self.folder)).sorted() where folders[folder] == nil { folders[folder] = folders.count }
      for (name, data) in seen[index] where now[name] == nil {
        deleted[name] = (data, index)
        if published[name] == data { published[name] = nil }
      }
      for name in inOrder(now.keys) {
        guard let data = now[name], deleted[name]?.data != data else { continue }  // its deletion is on its way
        guard let carried = published[name] else {
          published[name] = data
          continue
        }
        // A version this device wrote, beside another the engine carries: the engine picks
        // one (Syncthing keeps the newer), and the other becomes a conflict copy where it is.
        if carried != data && seen[index][name] != data {
          counts.conflicts += 1
          if random.next(below: 2) == 0 { published[name] = data }
        }
      }
    }
  }

  /// The device folder a name is in.
  static func folder(_ name: String) -> String { String(name.prefix { $0 != "/" }) }

  /// Names in the order the engine takes them: by folder, as first met, then by name.
  func inOrder(_ names: some Sequence<String>) -> [String] {
    names.map { (folders[Self.folder($0)] ?? .max, $0.drop { $0 != "/" }, $0) }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
  }

  /// The files of a device that are not truncated deliveries.
  func wholeFiles(of device: DifferentialDevice, _ index: Int) -> [String: Data] {
    var files: [String: Data] = [:]
    for name in device.changeFiles() where !truncated.contains(key(index, name)) { files[name] = device.read(name) }
    return files
  }

  /// A copy of one device's files is now on `target` (a new device, or over one): the engine
  /// meets them as a new install does, and what was truncated in them still is.
  mutating func copied(from source: Int, onto target: Int) {
    while seen.count <= target { seen.append([:]) }
    seen[target] = [:]
    truncated = truncated.filter { !$0.hasPrefix("\(target)|") }
    for entry in truncated where entry.hasPrefix("\(source)|") { truncated.insert("\(target)|" + entry.dropFirst("\(source)|".count)) }
  }

  /// A free name for a conflict copy of `name` on a device, in one engine's style.
  func conflictCopyName(of name: String, on device: DifferentialDevice, now: Date, random: inout DifferentialRandom) -> String {
    let stem = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
    let style = random.next(below: 3)
    for attempt in 0..<100 {
      let digits = ISO8601.format(now + Double(attempt)).filter(\.isNumber)
      let candidate =
        switch style {
        case 0: "\(stem).sync-conflict-\(digits.prefix(8))-\(digits.dropFirst(8).prefix(6))-\(["PI7EF2V", "MX3Q9ZA", "K2LDU4H", "TQWJ5NB"][device.index % 4]).json"
        case 1: "\(stem) (device\(device.index)'s conflicted copy \(digits.prefix(4))-\(digits.dropFirst(4).prefix(2))-\(digits.dropFirst(6).prefix(2))\(attempt == 0 ? "" : " \(attempt)")).json"
        default: "\(stem) \(attempt + 2).json"
        }
      if published[candidate] == nil && !device.has(candidate) && deleted[candidate] == nil { return candidate }
    }
    return "\(stem).sync-conflict-99991231-235959-\(UUID().uuidString.prefix(7)).json"
  }

  /// The device ids under which a device holds two different change files of one sequence
  /// (under the name and as conflict copies): ids two copies of a store both wrote under.
  func divergentIDs(on device: DifferentialDevice) -> Set<String> {
    var versions: [String: Set<Data>] = [:]
    for name in device.changeFiles() where !truncated.contains(key(device.index, name)) {
      let original = copyOf[name] ?? name
      guard Self.isCanonical(original), !original.contains("/snapshot-"), let data = device.read(name) else { continue }
      versions[original, default: []].insert(data)
    }
    return Set(versions.filter { $0.value.count > 1 }.keys.map { String($0.prefix { $0 != "/" }) })
  }
}

extension DifferentialEngine {
  /// Whether a name is one the store writes for a change or a snapshot (`<device>/000000000042.json`,
  /// `<device>/snapshot-000000000003.json`), not a conflict copy or `device.json`.
  static func isCanonical(_ name: String) -> Bool {
    guard let file = name.split(separator: "/").last, file.hasSuffix(".json") else { return false }
    let stem = file.dropLast(5)
    let digits = stem.hasPrefix("snapshot-") ? stem.dropFirst(9) : stem
    return !digits.isEmpty && digits.allSatisfy(\.isNumber)
  }
}
