#if canImport(Darwin)
  import Foundation
  import Synchronization

  /// The file calls only Apple's systems have, each where the engine's one platform branch sends
  /// it: the full flush, a file's modification time, and the folder watch. Linux type-checks this
  /// file against a stub of exactly these declarations (Scripts/check-apple-stub.sh).
  enum AppleFileCalls {
    /// ``FileSystem/flush(_:dataOnly:)`` on Apple platforms: `fsync` only hands the data to the
    /// drive, whose cache a power loss can still take; `F_FULLFSYNC` asks the drive to write its
    /// cache out, as SQLite's `PRAGMA fullfsync` does. A file system that has no full flush (some
    /// network and FUSE ones) gets its best, `fsync`.
    static func flush(_ fd: Int32) -> Int32 {
      if fcntl(fd, F_FULLFSYNC) == 0 { return 0 }
      return fsync(fd)
    }

    /// A file's modification time in nanoseconds (`st_mtim` on Linux).
    static func modified(_ info: stat) -> Int64 {
      Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
    }

    /// ``FolderWatcher``'s watch on Apple platforms: one file-system event source per folder,
    /// all reporting on one serial queue, which also adds the sources of folders that appear.
    /// Apple's sources name no file, so every event counts. Returns false at once when there is
    /// nothing to watch (the caller polls), else when `isStopped` says so.
    static func watchFolders(
      _ folders: @escaping @Sendable () -> [String], isChange: @escaping @Sendable (String) -> Bool,
      change: @escaping @Sendable () -> Void, isStopped: () -> Bool, ready: DispatchSemaphore
    ) -> Bool {
      let queue = DispatchQueue(label: "PlainStore.FolderWatcher")
      let sources = StoreMutex<[String: any DispatchSourceFileSystemObject]>([:])
      let missing = Atomic<Bool>(false)  // a folder asked for is not there (yet): ask again
      /// Adds a source for each folder asked for that has none; whether one was added that
      /// counts as a change.
      @Sendable @discardableResult func update() -> Bool {
        var absent = false
        var added = false
        for folder in folders() where sources.withLock({ $0[folder] == nil }) {
          let fd = open(folder, O_EVTONLY)
          guard fd >= 0 else {
            absent = true
            continue
          }
          let source = DispatchSource.makeFileSystemObjectSource(fileDescriptor: fd, eventMask: [.write, .attrib, .rename, .delete], queue: queue)
          source.setEventHandler {
            update()
            change()
          }
          source.setCancelHandler { close(fd) }
          sources.withLock { $0[folder] = source }
          source.resume()
          if isChange(folder) { added = true }
        }
        missing.store(absent, ordering: .relaxed)
        return added
      }
      queue.sync { update() }
      guard sources.withLock({ !$0.isEmpty }) || missing.load(ordering: .relaxed) else { return false }
      ready.signal()
      while !isStopped() {
        Thread.sleep(forTimeInterval: 0.1)
        if missing.load(ordering: .relaxed) {
          queue.async {
            if update() { change() }
          }
        }
      }
      queue.sync { sources.withLock { for source in $0.values { source.cancel() } } }
      return true
    }
  }
#endif
