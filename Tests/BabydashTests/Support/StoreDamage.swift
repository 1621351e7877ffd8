import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One way a file of the app group can be damaged: by a disk, a sync engine, a person, or an
/// attacker with write access to the folder.
enum StoreDamage: String, CaseIterable, Sendable {
  case truncatedToOneByte, truncatedToHalf, truncatedByOneByte, zeroFilled, byteFlipped
  case jsonArray, jsonOfAnotherFile, newerVersion, versionZero, versionNegative, duplicateKey
  case emptied, folder, fifo, symbolicLink, unreadable, missing

  /// Damages the file at `url`; a link points at an intact copy in `outside`. Returns why the
  /// damage does not apply to this file (no change in its bytes, or root ignoring modes), or
  /// nil once it is done.
  func apply(to url: URL, outside: URL) throws -> String? {
    let files = FileManager.default
    let data = try Data(contentsOf: url)
    let text = String(decoding: data, as: UTF8.self)
    var damaged: Data?
    switch self {
    case .truncatedToOneByte: if data.count > 2 { damaged = data.prefix(1) }
    case .truncatedToHalf: if data.count > 2 { damaged = data.prefix(data.count / 2) }
    case .truncatedByOneByte: if data.count > 1 { damaged = data.prefix(data.count - 1) }
    case .zeroFilled: if !data.isEmpty { damaged = Data(count: data.count) }
    case .byteFlipped:
      if !data.isEmpty {
        var copy = data
        copy[data.count / 2] ^= 0x01
        damaged = copy
      }
    case .jsonArray: damaged = Data("[1,2,3]\n".utf8)
    case .jsonOfAnotherFile: damaged = Data(#"{"formatVersion":2,"device":"x","sequence":1,"segments":{}}"#.utf8)
    case .newerVersion, .versionZero, .versionNegative:
      let version = self == .newerVersion ? "99" : self == .versionZero ? "0" : "-1"
      let replaced = text.replacingOccurrences(
        of: #""(formatVersion|schemaVersion)"\s*:\s*[0-9]+"#, with: "\"$1\":\(version)", options: .regularExpression)
      if replaced != text { damaged = Data(replaced.utf8) }
    case .duplicateKey:
      // The first member again, right after the opening brace, with another value.
      if let range = text.range(of: #"^\{\s*"[^"]+"\s*:"#, options: .regularExpression) {
        let member = text[range].dropFirst().trimmingCharacters(in: .whitespaces)
        damaged = Data(("{" + member + "0," + text.dropFirst()).utf8)
      }
    case .emptied: if !data.isEmpty { damaged = Data() }
    case .folder:
      try files.removeItem(at: url)
      try files.createDirectory(at: url, withIntermediateDirectories: false)
      return nil
    case .fifo:
      try files.removeItem(at: url)
      guard mkfifo(url.path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
      return nil
    case .symbolicLink:
      try files.createDirectory(at: outside, withIntermediateDirectories: true)
      let target = outside.appendingPathComponent(url.lastPathComponent)
      try data.write(to: target)
      try files.removeItem(at: url)
      try files.createSymbolicLink(at: url, withDestinationURL: target)
      return nil
    case .unreadable:
      if geteuid() == 0 { return "skipped: the tests run as root, whom mode 000 does not stop" }
      guard chmod(url.path, 0) == 0 else { throw CocoaError(.fileWriteNoPermission) }
      return nil
    case .missing:
      try files.removeItem(at: url)
      return nil
    }
    guard let damaged, damaged != data else { return "not applicable: the file's bytes would not change" }
    try damaged.write(to: url)
    return nil
  }
}
