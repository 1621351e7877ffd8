import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A store folder kept in memory: the named byte files and folders an in-memory store writes,
/// so that it runs every step a store on disk runs (journal, change files, local log,
/// segments, manifest) — the same machine on another medium.
///
/// It is mounted under a virtual root (``mount()``), a path no disk has, and ``FileSystem``
/// sends every operation on a path under it here: the engine names its files as it does on
/// disk, and no step has a second road for memory. It has no links, no temporary files and
/// nothing to flush; each folder's entries are a dictionary, read and written behind one lock.
final class MemoryMedium: Sendable {
  /// Where memory stores are mounted: `/PlainStore.memory/<number>/`.
  static let mountPrefix = "/PlainStore.memory/"

  /// The mount's folder (`/PlainStore.memory/<number>`): the parent of the store's root.
  let folder: String
  private let nodes: StoreMutex<Nodes>
  /// The store's lock (`local/lock`): in one process, a mutex orders what flock orders on disk.
  let storeLock = StoreMutex(())

  private struct Nodes {
    /// Each folder's entries by name, by the folder's path.
    var folders: [String: [String: Node]]
    /// Counts writes: each one gives its file a new identity, as a rename gives a new inode.
    var writes: UInt64 = 0
  }

  private enum Node {
    case file(Data, identity: UInt64)
    case folder
  }

  private init(folder: String) {
    self.folder = folder
    nodes = StoreMutex(Nodes(folders: [folder: [:]]))
  }

  // MARK: Mounting

  private static let mounts = StoreMutex<(next: Int, media: [String: MemoryMedium])>((1, [:]))

  /// A new empty medium, mounted at a folder of its own until ``unmount()``.
  static func mount() -> MemoryMedium {
    mounts.withLock { mounts in
      let medium = MemoryMedium(folder: mountPrefix + String(mounts.next))
      mounts.next += 1
      mounts.media[medium.folder] = medium
      return medium
    }
  }

  /// Lets the medium go: its paths are no longer anything.
  func unmount() {
    _ = Self.mounts.withLock { $0.media.removeValue(forKey: folder) }
  }

  /// The medium mounted where `path` lies; nil for a path on disk (one string comparison).
  static func holding(_ path: String) -> MemoryMedium? {
    guard path.hasPrefix(mountPrefix) else { return nil }
    // By UTF-8 byte, not by Character: every file operation of a memory store asks this.
    let bytes = path.utf8
    let number = bytes.index(bytes.startIndex, offsetBy: mountPrefix.utf8.count)
    let folder = String(path[..<(bytes[number...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex)])
    return mounts.withLock { $0.media[folder] }
  }

  private static func split(_ path: String) -> (folder: String, name: String) {
    let bytes = path.utf8
    guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return ("", path) }
    return (String(path[..<slash]), String(path[bytes.index(after: slash)...]))
  }

  private func node(_ path: String, _ nodes: Nodes) -> Node? {
    if path == folder { return .folder }  // the mount's own folder, which no folder lists
    let (parent, name) = Self.split(path)
    return nodes.folders[parent]?[name]
  }

  // MARK: Files

  /// ``FileSystem/read(atPath:displayPath:from:)``: nil when there is no file or it is shorter
  /// than `start`; a folder in its place is damage.
  func read(atPath path: String, displayPath: String, from start: Int) throws -> Data? {
    try nodes.withLock { nodes -> Data? in
      switch node(path, nodes) {
      case nil: return nil
      case .folder:
        throw StoreError(.damaged, path: displayPath, "is not a regular file — move it aside; the store was left untouched.")
      case .file(let data, _):
        guard data.count >= start else { return nil }
        return start == 0 ? data : data.subdata(in: start..<data.count)
      }
    }
  }

  /// Writes a file whole, replacing one there unless `once`: false when `once` and the name is
  /// taken. Its folder must be there, as on disk.
  func write(_ data: Data, atPath path: String, displayPath: String, once: Bool) throws -> Bool {
    let (parent, name) = Self.split(path)
    return try nodes.withLock { nodes in
      guard nodes.folders[parent] != nil else { throw FileSystem.error(ENOENT, displayPath, "cannot create a temporary file beside it") }
      switch nodes.folders[parent]![name] {
      case .folder?: throw FileSystem.error(EISDIR, displayPath, "cannot rename into place")
      case .file?: if once { return false }
      case nil: break
      }
      nodes.writes += 1
      nodes.folders[parent]![name] = .file(Data(data), identity: nodes.writes)
      return true
    }
  }

  /// Appends to a file, creating it: first cut to `cutTo` when given. Returns its size before.
  /// A folder in its place is damage, said with `otherwise`.
  func append(_ data: Data, atPath path: String, displayPath: String, cutTo: Int?, otherwise: String) throws -> Int {
    let (parent, name) = Self.split(path)
    return try nodes.withLock { nodes in
      guard nodes.folders[parent] != nil else { throw FileSystem.error(ENOENT, displayPath, "cannot open") }
      var bytes = Data()
      switch nodes.folders[parent]![name] {
      case .folder?: throw StoreError(.damaged, path: displayPath, "is not a regular file — \(otherwise)")
      case .file(let old, _)?: bytes = old
      case nil: break
      }
      let before = bytes.count
      if let cutTo, cutTo < bytes.count { bytes.count = cutTo }
      bytes.append(data)
      nodes.writes += 1
      nodes.folders[parent]![name] = .file(bytes, identity: nodes.writes)
      return before
    }
  }

  /// Cuts a file to `size` bytes (a journal emptied); nothing when there is none.
  func truncate(atPath path: String, to size: Int) {
    let (parent, name) = Self.split(path)
    nodes.withLock { nodes in
      guard case .file(var bytes, _)? = nodes.folders[parent]?[name] else { return }
      bytes.count = min(bytes.count, size)
      nodes.writes += 1
      nodes.folders[parent]![name] = .file(bytes, identity: nodes.writes)
    }
  }

  // MARK: Folders and names

  /// Makes a folder; its parent must be there, as on disk. A file in its place is damage.
  func makeFolder(atPath path: String, displayPath: String) throws {
    let (parent, name) = Self.split(path)
    try nodes.withLock { nodes in
      switch nodes.folders[parent]?[name] {
      case .folder?: return
      case .file?: throw StoreError(.damaged, path: displayPath, "is a file where a folder should be — move it aside.")
      case nil:
        guard nodes.folders[parent] != nil else { throw FileSystem.error(ENOENT, displayPath, "cannot create the folder") }
        nodes.folders[parent]![name] = .folder
        nodes.folders[path] = [:]
      }
    }
  }

  /// The names in a folder, in no order; none when it is not there.
  func list(atPath path: String) -> [String] {
    nodes.withLock { nodes in nodes.folders[path].map { Array($0.keys) } ?? [] }
  }

  func isFolder(atPath path: String) -> Bool {
    nodes.withLock { nodes in if case .folder? = node(path, nodes) { true } else { false } }
  }

  func exists(atPath path: String) -> Bool { nodes.withLock { nodes in node(path, nodes) != nil } }

  func size(atPath path: String) -> Int? {
    nodes.withLock { nodes in if case .file(let data, _)? = node(path, nodes) { data.count } else { nil } }
  }

  /// A file's identity: a new one at each write, as a rename gives a new inode on disk.
  func identity(atPath path: String) -> FileIdentity? {
    nodes.withLock { nodes in
      switch node(path, nodes) {
      case nil: nil
      case .folder: FileIdentity(device: 0, inode: 0, size: 0, modified: 0)
      case .file(let data, let identity): FileIdentity(device: 0, inode: identity, size: Int64(data.count), modified: Int64(identity))
      }
    }
  }

  /// Removes a file, or a folder with everything in it; nothing there is fine.
  func remove(atPath path: String) {
    let (parent, name) = Self.split(path)
    nodes.withLock { nodes in
      guard nodes.folders[parent]?.removeValue(forKey: name) != nil else { return }
      nodes.folders[path] = nil
      for folder in nodes.folders.keys where folder.hasPrefix(path + "/") { nodes.folders[folder] = nil }
    }
  }
}
