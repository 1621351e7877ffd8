import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The on-disk states a power loss may leave while a process ran, from the folder as it was
/// before and the changes the process made (``FileOperationLog``), under the rules ext4
/// (data=ordered) and APFS document, taken strictly:
/// - a file's data not yet flushed may be lost, or kept in part: any prefix of its writes and
///   truncations since its last flush, the last of them cut anywhere;
/// - a folder's entries (a file or folder created in it, a rename into it, an unlink) reach
///   the disk in order, and are durable once the folder is flushed: any prefix of its changes
///   since its last flush may be what is left — a flush of the file does not make its name
///   durable, nor does a flush of the folder make the file's data durable;
/// - a rename is atomic: the old name or the new one, never both or neither;
/// - what was flushed stays.
///
/// A state is named by the cut (how many operations had happened) and, for each folder and file
/// changed before it, how much of its changes since its last flush reached the disk.
struct PowerLossModel {
  /// A file or folder, by the order it appears in (inode numbers are reused).
  typealias Object = Int

  private enum EntryChange {
    case link(name: String, object: Object)
    case unlink(name: String)
    /// Out of `from` (another folder, or this one) into this folder.
    case rename(from: Object, fromName: String, toName: String, object: Object)
  }

  private enum DataChange {
    case write(offset: Int, bytes: Data)
    case truncate(size: Int)
  }

  private var root: Object
  private var isFolder: [Bool] = []
  private var initialEntries: [Object: [String: Object]] = [:]
  private var initialData: [Object: Data] = [:]
  /// Per folder, its entry changes with the operation index of each.
  private var entryChanges: [Object: [(index: Int, change: EntryChange)]] = [:]
  /// Per file, its data changes with the operation index of each.
  private var dataChanges: [Object: [(index: Int, change: DataChange)]] = [:]
  /// Per object, the indices of its flushes.
  private var flushes: [Object: [Int]] = [:]
  /// The operation indices of the outputs, and what they said.
  private(set) var outputs: [(index: Int, text: String)] = []

  private var byInode: [UInt64: Object] = [:]
  private(set) var operationCount = 0

  /// Reads `folder` as it is before the process runs: call it then, and ``take(_:)`` the
  /// process's changes once it has run.
  init(before folder: URL) throws {
    root = 0
    root = try scan(folder)
  }

  private mutating func add(_ folderFlag: Bool, inode: UInt64) -> Object {
    isFolder.append(folderFlag)
    byInode[inode] = isFolder.count - 1
    return isFolder.count - 1
  }

  private mutating func scan(_ url: URL) throws -> Object {
    var info = stat()
    guard lstat(url.path, &info) == 0 else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: url.path]) }
    if (info.st_mode & S_IFMT) == S_IFDIR {
      let object = add(true, inode: UInt64(info.st_ino))
      var entries: [String: Object] = [:]
      for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
        entries[name] = try scan(url.appendingPathComponent(name))
      }
      initialEntries[object] = entries
      return object
    }
    let object = add(false, inode: UInt64(info.st_ino))
    initialData[object] = try Data(contentsOf: url)
    return object
  }

  /// Takes the process's changes, replayed on the live tree to learn which object each name means.
  mutating func take(_ log: FileOperationLog) {
    var live = initialEntries
    for (index, operation) in log.operations.enumerated() {
      switch operation {
      case .write(let inode, let offset, let bytes):
        guard let object = byInode[inode] else { continue }  // outside the folder
        dataChanges[object, default: []].append((index, .write(offset: offset, bytes: bytes)))
      case .truncate(let inode, let size):
        guard let object = byInode[inode] else { continue }
        dataChanges[object, default: []].append((index, .truncate(size: size)))
      case .sync(let inode):
        guard let object = byInode[inode] else { continue }
        flushes[object, default: []].append(index)
      case .create(let parent, let folderFlag, let inode, let name):
        guard let folder = byInode[parent] else { continue }
        let object = add(folderFlag, inode: inode)
        if folderFlag {
          initialEntries[object] = [:]
          live[object] = [:]
        } else {
          initialData[object] = Data()
        }
        live[folder, default: [:]][name] = object
        entryChanges[folder, default: []].append((index, .link(name: name, object: object)))
      case .unlink(let parent, let name):
        guard let folder = byInode[parent], live[folder]?[name] != nil else { continue }
        live[folder]?[name] = nil
        entryChanges[folder, default: []].append((index, .unlink(name: name)))
      case .rename(let fromParent, let toParent, let fromName, let toName):
        guard let from = byInode[fromParent], let to = byInode[toParent], let object = live[from]?[fromName] else { continue }
        live[from]?[fromName] = nil
        live[to, default: [:]][toName] = object
        entryChanges[to, default: []].append((index, .rename(from: from, fromName: fromName, toName: toName, object: object)))
      case .output(let text):
        outputs.append((index, text))
      }
    }
    operationCount = log.operations.count
  }

  /// One state: after `cut` operations, how many of each folder's entry changes and each file's
  /// data changes reached the disk, and how many bytes of the next write of a file did.
  struct State: Hashable, Sendable {
    var cut: Int
    var entries: [Int: Int]
    var data: [Int: Int]
    var partial: [Int: Int]
  }

  /// The bounds of a state at `cut`: per object, the changes that must be there (up to its last
  /// flush before the cut) and those that may be.
  private func bounds(_ changes: [Int], cut: Int, flushes: [Int]) -> (least: Int, most: Int) {
    let most = changes.prefix { $0 < cut }.count
    let lastFlush = flushes.last { $0 < cut } ?? -1
    return (changes.prefix { $0 < lastFlush }.count, most)
  }

  /// States at `cut`: everything that happened on disk; only what was flushed; and `samples`
  /// in between, drawn with `random`.
  func states(at cut: Int, samples: Int, random: inout SplitMix64) -> [State] {
    var least = State(cut: cut, entries: [:], data: [:], partial: [:])
    var most = least
    var entryBounds: [Object: (least: Int, most: Int)] = [:]
    var dataBounds: [Object: (least: Int, most: Int)] = [:]
    for (folder, changes) in entryChanges {
      let bound = bounds(changes.map(\.index), cut: cut, flushes: flushes[folder] ?? [])
      entryBounds[folder] = bound
      least.entries[folder] = bound.least
      most.entries[folder] = bound.most
    }
    for (file, changes) in dataChanges {
      let bound = bounds(changes.map(\.index), cut: cut, flushes: flushes[file] ?? [])
      dataBounds[file] = bound
      least.data[file] = bound.least
      most.data[file] = bound.most
    }
    var states = [most, least]
    for _ in 0..<samples {
      var state = least
      for folder in entryBounds.keys.sorted() {
        let bound = entryBounds[folder]!
        state.entries[folder] = bound.least + Int(random.next() % UInt64(bound.most - bound.least + 1))
      }
      for file in dataBounds.keys.sorted() {
        let bound = dataBounds[file]!
        let count = bound.least + Int(random.next() % UInt64(bound.most - bound.least + 1))
        state.data[file] = count
        if count < bound.most, random.next() % 2 == 0, case .write(_, let bytes) = dataChanges[file]![count].change, bytes.count > 1 {
          state.partial[file] = 1 + Int(random.next() % UInt64(bytes.count - 1))
        }
      }
      states.append(state)
    }
    return states
  }

  /// The files and folders of `state`, by path relative to the folder (folders end in "/").
  func tree(of state: State) -> [String: Data] {
    var entries = initialEntries
    var applied: [(index: Int, folder: Object, change: EntryChange)] = []
    for (folder, changes) in entryChanges {
      for change in changes.prefix(state.entries[folder] ?? 0) { applied.append((change.index, folder, change.change)) }
    }
    for (_, folder, change) in applied.sorted(by: { $0.index < $1.index }) {
      switch change {
      case .link(let name, let object): entries[folder, default: [:]][name] = object
      case .unlink(let name): entries[folder]?[name] = nil
      case .rename(let from, let fromName, let toName, let object):
        if entries[from]?[fromName] == object { entries[from]?[fromName] = nil }
        entries[folder, default: [:]][toName] = object
      }
    }
    var tree: [String: Data] = [:]
    func walk(_ folder: Object, _ prefix: String) {
      for (name, object) in entries[folder] ?? [:] {
        if isFolder[object] {
          tree[prefix + name + "/"] = Data()
          walk(object, prefix + name + "/")
        } else {
          tree[prefix + name] = contents(of: object, in: state)
        }
      }
    }
    walk(root, "")
    return tree
  }

  private func contents(of file: Object, in state: State) -> Data {
    var data = initialData[file] ?? Data()
    let changes = dataChanges[file] ?? []
    let count = state.data[file] ?? 0
    func apply(_ change: DataChange, limit: Int?) {
      switch change {
      case .truncate(let size):
        if size < data.count { data.removeSubrange(size...) } else { data.append(Data(count: size - data.count)) }
      case .write(let offset, var bytes):
        if let limit { bytes = bytes.prefix(limit) }
        if data.count < offset + bytes.count { data.append(Data(count: offset + bytes.count - data.count)) }
        data.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
      }
    }
    for change in changes.prefix(count) { apply(change.change, limit: nil) }
    if let partial = state.partial[file], count < changes.count { apply(changes[count].change, limit: partial) }
    return data
  }

  /// Writes `tree` into `folder` (which must not exist).
  static func materialize(_ tree: [String: Data], into folder: URL) throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for path in tree.keys.sorted() {
      let url = folder.appendingPathComponent(path)
      if path.hasSuffix("/") {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      } else {
        try tree[path]!.write(to: url)
        chmod(url.path, 0o600)
      }
    }
  }
}
