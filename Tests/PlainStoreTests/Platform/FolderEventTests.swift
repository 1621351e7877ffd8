#if os(Linux)
  import Foundation
  import Glibc
  import Testing

  @testable import PlainStore

  /// On Apple platforms another process's commit is heard through a dispatch source (kqueue) on
  /// `local/log/`, which reports only what happens to the folder: a name added, removed or renamed,
  /// or the folder's own attributes changed — never an append inside one of its files. Here the
  /// same folder is watched with inotify restricted to those events, and every kind of commit is
  /// held to making one.
  @Suite struct FolderEventTests {
    /// An inotify watch that sees what kqueue sees of a folder.
    final class FolderOnlyWatch {
      private let fd: Int32

      init(_ folders: [String]) throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        // No IN_MODIFY, no IN_CLOSE_WRITE: an append reports nothing, as with kqueue.
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_ATTRIB)
        for folder in folders { guard inotify_add_watch(fd, folder, mask) >= 0 else { throw POSIXError(.ENOENT) } }
      }

      deinit { close(fd) }

      /// The events queued since the last call that a folder's kqueue source would report: any
      /// name's creation, deletion or move, and an attribute change of the folder itself (an
      /// IN_ATTRIB about a file inside is not one: kqueue on the folder does not see it).
      func events() -> [String] {
        var found: [String] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
          let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
          guard count > 0 else { return found }
          var offset = 0
          while offset + 16 <= count {
            let (mask, length) = buffer.withUnsafeBytes {
              ($0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self), Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
            }
            let name = String(decoding: buffer[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }, as: UTF8.self)
            if mask & UInt32(IN_ATTRIB) == 0 || name.isEmpty { found.append(name.isEmpty ? "(folder)" : name) }
            offset += 16 + length
          }
        }
      }
    }

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("FolderEvents-\(UUID().uuidString)")
    var store: URL { folder.appendingPathComponent("Family.store") }

    func item(_ batch: Int, _ part: Int) -> MultiProcessItem {
      MultiProcessItem(id: UUID(), writer: "test", batch: batch, part: part, at: Date(timeIntervalSince1970: Double(batch * 10_000 + part)))
    }

    @Test func everyCommitMakesAnEventThatAFolderWatchOnApplePlatformsSees() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      let options = StoreOptions(author: "test", watchesOtherProcesses: false, deviceID: String(repeating: "a", count: 32))
      let container = try StoreContainer.file(at: store, schema: MultiProcessItem.schema, options: options)
      let context = container.newBackgroundContext()
      context.insert(item(0, 0))
      try context.save()
      let log = store.appendingPathComponent("local/log").path
      let watch = try FolderOnlyWatch([log])
      _ = watch.events()

      for batch in 1...3 {
        context.insert(item(batch, 0))
        try context.save()
        #expect(!watch.events().isEmpty, "small commit \(batch): an append alone is no event for the folder")
      }

      for part in 0..<1_200 { context.insert(item(10, part)) }
      try context.save()
      #expect(!watch.events().isEmpty, "a large commit")

      let child = try MultiProcessChild.run(["write", store.path, "--writer", "other", "--commits", "2"])
      #expect(child.waitForExit() == 0)
      #expect(!watch.events().isEmpty, "another process's commits")
      _ = try container.refresh()
      _ = watch.events()

      // Another device's change file arrives, and the merge is a transaction of the local log.
      let otherStore = folder.appendingPathComponent("Other.store")
      let other = try StoreContainer.file(
        at: otherStore, schema: MultiProcessItem.schema,
        options: StoreOptions(author: "other", watchesOtherProcesses: false, deviceID: String(repeating: "b", count: 32)))
      let otherContext = other.newBackgroundContext()
      otherContext.insert(item(20, 0))
      try otherContext.save()
      try FileManager.default.copyItem(
        at: otherStore.appendingPathComponent("changes").appendingPathComponent(String(repeating: "b", count: 32)),
        to: store.appendingPathComponent("changes").appendingPathComponent(String(repeating: "b", count: 32)))
      #expect(try container.sync() != nil)
      #expect(!watch.events().isEmpty, "a merge of another device's changes")
    }
  }
#endif
