import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every entry under a folder as it is on disk, without following links or opening FIFOs: what
/// "not one byte changed" is measured against.
enum FileTree {
  enum Entry: Equatable, CustomStringConvertible {
    case file(Data, mode: mode_t)
    case folder(mode: mode_t)
    case link(String)
    case other(mode: mode_t)  // a FIFO, a socket, a device

    var description: String {
      switch self {
      case .file(let data, let mode): "file \(data.count) bytes, mode \(String(mode, radix: 8))"
      case .folder(let mode): "folder, mode \(String(mode, radix: 8))"
      case .link(let target): "link to \(target)"
      case .other(let mode): "special file \(String(mode, radix: 8))"
      }
    }
  }

  static func snapshot(_ root: URL) -> [String: Entry] {
    var entries: [String: Entry] = [:]
    walk(root.path, relative: "", into: &entries)
    return entries
  }

  private static func walk(_ path: String, relative: String, into entries: inout [String: Entry]) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    let mode = info.st_mode & 0o7777
    switch info.st_mode & S_IFMT {
    case S_IFDIR:
      if !relative.isEmpty { entries[relative] = .folder(mode: mode) }
      for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
        walk(path + "/" + name, relative: relative.isEmpty ? name : relative + "/" + name, into: &entries)
      }
    case S_IFLNK:
      entries[relative] = .link((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?")
    case S_IFREG:
      entries[relative] = .file(FileManager.default.contents(atPath: path) ?? Data("<unreadable>".utf8), mode: mode)
    default:
      entries[relative] = .other(mode: info.st_mode)
    }
  }

  /// The entries that differ, one line each, for a failure message.
  static func differences(_ before: [String: Entry], _ after: [String: Entry]) -> [String] {
    Set(before.keys).union(after.keys).sorted().compactMap { key in
      let old = before[key]
      let new = after[key]
      guard old != new else { return nil }
      return "\(key): \(old.map(\.description) ?? "absent") → \(new.map(\.description) ?? "absent")"
    }
  }
}
