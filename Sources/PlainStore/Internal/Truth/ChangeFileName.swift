import Foundation

/// What a name in a device's folder of `changes/` is, including the copies and leftovers that
/// file-sync engines make.
///
/// The store writes only lowercase `[0-9a-z.-]` names of fixed width — `device.json`,
/// `<sequence>.json`, `snapshot-<number>.json` — so no engine (case-insensitive disks included) can make two of them
/// collide. The name holds the sequence alone (the clock stamp is inside the file), so that
/// creating the name claims the sequence: two processes of one device can never both write
/// change 42, and a process can look for change 42 with one `stat`. A conflict copy (Syncthing's `NAME.sync-conflict-…`, Dropbox's
/// `NAME (conflicted copy …)`, iCloud's `NAME 2`) names the file it copies: the store reads it
/// as that file, since a change file never changes, a copy can only repeat it.
enum ChangeFileName: Equatable, Sendable {
  /// `device.json`: who the device is.
  case deviceInfo
  /// `<sequence>.json`: one committed transaction.
  case change(sequence: Int)
  /// `snapshot-<number>.json`: the device's merged view at a compaction, which is also its
  /// acknowledgement of every change the view holds.
  case snapshot(number: Int)
  /// `reads-<format>.json`: the device reads change-file formats up to this one (see
  /// ``ChangeFormat``); the name says it all.
  case reads(format: Int)
  /// `name-<number>.json`: the device's name from then on, the newest number winning (see
  /// ``ChangeFolder/deviceName(_:)``).
  case renamed(number: Int)
  /// A sync engine's temporary or bookkeeping file, an iCloud placeholder, a Finder file, or a
  /// temporary file of the store's own: skipped.
  case artefact
  /// Anything else: left alone and reported.
  case unknown

  static let sequenceWidth = 12

  static func changeName(sequence: Int) -> String { sequenceText(sequence) + ".json" }

  static let snapshotPrefix = "snapshot-"

  static func snapshotName(number: Int) -> String { snapshotPrefix + sequenceText(number) + ".json" }

  static func sequenceText(_ sequence: Int) -> String { Digits.decimal(sequence, width: sequenceWidth) }

  static func parseSequence<S: StringProtocol>(_ text: S) -> Int? {
    Digits.value(text.utf8, width: sequenceWidth).map(Int.init)
  }

  /// Classifies one name; `isConflictCopy` says whether it was read through a conflict copy.
  static func classify(_ name: String) -> (kind: ChangeFileName, isConflictCopy: Bool) {
    if isArtefact(name) { return (.artefact, false) }
    // A name of the store's own holds no space and no Syncthing marker, so it is no copy: the
    // common case, asked of every file at every scan, skips the search for a copy's marks.
    let own = parseCanonical(name)
    guard own == .unknown, let base = originalName(ofConflictCopy: name) else { return (own, false) }
    let kind = parseCanonical(base)
    return (kind, kind != .unknown)
  }

  /// The name an iCloud placeholder stands for (`.NAME.icloud` for NAME), or nil when `name` is
  /// none. NAME exists, whole, in the cloud, but is not downloaded here: iOS shows another
  /// device's file so until the app asks for it, and turns a downloaded file back into one
  /// (this device's own included) when space runs short. Not downloaded is never lost.
  static func placeholderOriginal(_ name: String) -> String? {
    guard name.utf8.count > 8, name.hasPrefix("."), name.hasSuffix(".icloud") else { return nil }
    return String(name.dropFirst().dropLast(7))
  }

  /// The placeholder's name for NAME: `.NAME.icloud`.
  static func placeholderName(of name: String) -> String { "." + name + ".icloud" }

  static func isArtefact(_ name: String) -> Bool {
    name.hasPrefix(".")  // .syncthing.*.tmp, .stfolder, .stversions, .stignore, .NAME.icloud, .DS_Store, our own temporaries
      || name.hasPrefix("~syncthing~")
      || name == "Icon\r"
      || name.hasSuffix(".tmp")
  }

  private static func parseCanonical(_ name: String) -> ChangeFileName {
    if name == "device.json" { return .deviceInfo }
    guard name.hasSuffix(".json") else { return .unknown }
    if name.hasPrefix(ChangeFormat.markerPrefix) {
      guard let format = parseSequence(name.dropFirst(ChangeFormat.markerPrefix.count).dropLast(5)), format > 0 else { return .unknown }
      return .reads(format: format)
    }
    if name.hasPrefix(snapshotPrefix) {
      guard let number = parseSequence(name.dropFirst(snapshotPrefix.count).dropLast(5)), number > 0 else { return .unknown }
      return .snapshot(number: number)
    }
    if name.hasPrefix(DeviceName.prefix) {
      guard let number = parseSequence(name.dropFirst(DeviceName.prefix.count).dropLast(5)), number > 0 else { return .unknown }
      return .renamed(number: number)
    }
    guard let sequence = parseSequence(name.dropLast(5)), sequence > 0 else { return .unknown }
    return .change(sequence: sequence)
  }

  /// The name a conflict copy copies, or nil when `name` is no conflict copy.
  static func originalName(ofConflictCopy name: String) -> String? {
    // Syncthing: <stem>.sync-conflict-<date>-<time>-<device><.ext>
    if let range = name.range(of: ".sync-conflict-") {
      let stem = name[..<range.lowerBound]
      let rest = name[range.upperBound...]
      guard let dot = rest.lastIndex(of: ".") else { return String(stem) }
      return String(stem) + String(rest[dot...])
    }
    // Dropbox: <stem> (<who>'s conflicted copy <date>)<.ext>, and its variants.
    if let open = name.range(of: " ("), name.range(of: "conflicted copy", options: .caseInsensitive) != nil,
      let close = name.range(of: ")", range: open.upperBound..<name.endIndex)
    {
      return String(name[..<open.lowerBound]) + String(name[close.upperBound...])
    }
    // iCloud Drive and Finder: <stem> <n><.ext>
    let ext = name.hasSuffix(".json") ? ".json" : ""
    let stem = name.dropLast(ext.count)
    if let space = stem.lastIndex(of: " "), let number = Int(stem[stem.index(after: space)...]), number >= 2 {
      return String(stem[..<space]) + ext
    }
    return nil
  }
}
