import Foundation

/// A file of `changes/` as a record name, and back: `<device-id>_<file name>`. The store's names
/// are lowercase `[0-9a-z. -]` and its device ids 32 hex digits, so a name is ASCII, far under
/// CloudKit's 255 characters, never begins with `_`, and `_` never occurs in either part.
package enum CloudRecordName {
  package static func make(device: String, file: String) -> String { device + "_" + file }

  /// The device and file a record names, or nil when it names no file this store writes or
  /// reads (never a path: the file name may not hold a `/`, nor begin with a dot).
  static func parse(_ name: String) -> (device: DeviceID, file: String)? {
    let parts = name.split(separator: "_", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2, let device = DeviceID(String(parts[0])) else { return nil }
    let file = String(parts[1])
    guard !file.contains("/"), !file.hasPrefix("."), name.utf8.count < 255 else { return nil }
    switch ChangeFileName.classify(file).kind {
    case .deviceInfo, .reads, .renamed, .change, .snapshot: return (device, file)
    case .artefact, .unknown: return nil
    }
  }

  /// The name a second copy of `file` with `bytes` goes under, on the server and here: a
  /// Syncthing-style conflict copy (which the reader reads as `file`), named after its bytes,
  /// so that every device that meets the same copy names it alike.
  static func secondCopy(of file: String, bytes: Data) -> String {
    let stem = file.hasSuffix(".json") ? String(file.dropLast(5)) : file
    return stem + ".sync-conflict-" + Digits.hex16(FNV1a.hash(bytes)) + ".json"
  }
}
