import Foundation

/// Versions side by side: the change-file format a device writes, from what the devices of its
/// family publish about the formats they read.
///
/// A device says in its `device.json` (`"reads": N`; absent: ``oldest``) the newest format it
/// reads. One that reads a newer format later (its program was updated) does not rewrite that
/// file: every file in `changes/` is created once, because that is what every carrier moves
/// safely (a rewritten file is a conflict copy in iCloud Drive and CloudKit, and half a file for a
/// moment under Syncthing). It creates `reads-<N>.json` beside it instead, once per format: the
/// name says it all, so a reader learns it from the folder's listing, downloading nothing.
///
/// The rule, in one place (``ChangeFolder/changeFormats(own:now:inactiveAfter:)``): a device
/// writes the newest format that it and every active device of its family read — active as
/// compaction counts it (``ChangeFolder/isActive(_:lastSeen:now:within:)``), so a phone left in
/// a drawer holds the family back no longer than it holds back compaction. A device given a file
/// of a newer format than it reads refuses it by name (``refusal(_:format:by:reads:)``) and loses
/// nothing: the file stays, is neither folded nor acknowledged, and is folded once the program is
/// updated.
enum ChangeFormat {
  /// The format every program writes into `changes/`, and reads: a device that says nothing reads it.
  static let oldest = ChangeFile.formatVersion
  static let markerPrefix = "reads-"

  /// `reads-<format>.json`, fixed width like every name the store writes.
  static func markerName(_ format: Int) -> String { markerPrefix + ChangeFileName.sequenceText(format) + ".json" }

  /// What sync status says of a file this program does not read yet.
  static func refusal(_ path: String, format: Int, by device: String, reads: Int) -> String {
    "\(path): written in change-file format \(format) by \(device); this app reads up to \(reads) — update it"
  }
}

extension ChangeFolder {
  /// Whether a device still counts in the family: its last sign of life (`lastSeen`, the newest
  /// clock of its files, else when its `device.json` says it first committed) is within
  /// `interval` of `now`. Compaction waits for the active devices' acknowledgements, and the
  /// change-file format for their updates.
  func isActive(_ device: DeviceID, lastSeen: UInt64?, now: Date, within interval: TimeInterval) -> Bool {
    guard let seen = lastSeen.map(HybridLogicalClock.date(of:)) ?? deviceInfo(device)?.created else { return false }
    return now.timeIntervalSince(seen) <= interval
  }

  /// The newest format a device publishes that it reads: its `device.json`'s, or a `reads-N`
  /// among `names` (its folder's listing).
  func publishedReads(_ device: DeviceID, names: [String]) -> Int {
    names.reduce(deviceInfo(device)?.reads ?? ChangeFormat.oldest) { newest, name in
      if case (.reads(let format), false) = ChangeFileName.classify(name) { return max(newest, format) }
      return newest
    }
  }

  /// The family as a program that reads up to ``reads`` sees it, and the format it writes — the
  /// rule of ``ChangeFormat``, here alone. Reads the listings and each other device's
  /// `device.json`, and the newest files of the devices that read less (their last sign of life,
  /// as a scan finds it). Nil while the carrier is not there: nothing is known of the family.
  func changeFormats(own: DeviceID?, now: Date, inactiveAfter interval: TimeInterval) -> ChangeFormats? {
    guard isCarrying else { return nil }
    var formats = ChangeFormats(reads: reads, writes: reads)
    for name in transport.list(path).arrived {
      guard let device = DeviceID(name), device != own, FileSystem.isFolder(atPath: path + "/" + name) else { continue }
      let listing = transport.list(path + "/" + name)
      let names = listing.arrived + listing.notDownloaded
      let published = publishedReads(device, names: names)
      if published > reads { formats.newer.append(label(device)) }
      guard published < reads, isActive(device, lastSeen: lastSeen(device, names: listing.arrived), now: now, within: interval) else { continue }
      formats.writes = min(formats.writes, published)
      formats.waitingFor.append(label(device))
    }
    return formats
  }

  /// A device's newest clock: its newest change's and its newest snapshot's, the files a scan
  /// takes it from; nil when neither reads.
  private func lastSeen(_ device: DeviceID, names: [String]) -> UInt64? {
    var newest = (change: 0, snapshot: 0)
    for name in names {
      switch ChangeFileName.classify(name) {
      case (.change(let sequence), false): newest.change = max(newest.change, sequence)
      case (.snapshot(let number), false): newest.snapshot = max(newest.snapshot, number)
      default: break
      }
    }
    // Any format: only the clock is wanted. One that does not read is no sign of life.
    func clock(_ name: String, _ decode: (Data) -> UInt64?) -> UInt64? {
      (try? transport.read(atPath: filePath(device, name), displayPath: display(device, name))).flatMap { $0.flatMap(decode) }
    }
    let change = newest.change > 0 ? clock(ChangeFileName.changeName(sequence: newest.change)) { try? ChangeFileCodec.decode($0, reads: .max).get().hlc } : nil
    let snapshot =
      newest.snapshot > 0 ? clock(ChangeFileName.snapshotName(number: newest.snapshot)) { try? ChangeFileCodec.decodeSnapshot($0, reads: .max).get().hlc } : nil
    return [change, snapshot].compactMap { $0 }.max()
  }

  /// Creates `reads-<reads>.json` in this device's folder when neither its `device.json` nor a
  /// marker says it reads ``reads`` yet: once, after the program was updated.
  func publishReads(of device: DeviceID) throws {
    guard reads > ChangeFormat.oldest, isCarrying, FileSystem.isFolder(atPath: path + "/" + device.text) else { return }
    let listing = transport.list(path + "/" + device.text)
    guard publishedReads(device, names: listing.arrived + listing.notDownloaded) < reads else { return }
    let name = ChangeFormat.markerName(reads)
    _ = try transport.createOnce(Data("{\"reads\":\(reads)}\n".utf8), atPath: filePath(device, name), displayPath: display(device, name))
  }

  /// How messages name a device: the name it goes by, else its id's first 8 digits.
  func label(_ device: DeviceID) -> String {
    let name = deviceName(device)
    return name.isEmpty ? String(device.text.prefix(8)) : name
  }
}
