import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Calls `onChange` soon after files appear in a set of folders or a folder's times change
/// (what the local log's writer does after an append): inotify on Linux, file-system event
/// sources on Apple platforms, polling where neither works. Watches folders, not files, because
/// an atomic rename replaces a file and the log starts new ones.
///
/// The set can grow: `folders` is asked again after every event, so a folder that appears in
/// a watched one (a new device's folder in `changes/`) is watched from then on. `onChange` runs
/// after the new watch is in place, so a file written into the new folder before it was watched
/// is seen by the call, and one written after by the next event.
final class FolderWatcher: Sendable {
  private let stopped = Atomic<Bool>(false)
  /// Held while `onChange` runs: ``stop()`` waits for a call in progress, so that the store a
  /// call holds is let go before the caller of `stop()` goes on (and frees it, on its thread).
  private let calling = StoreMutex(())
  /// The thread running `onChange` (0 between calls): `stop()` called from inside `onChange`
  /// (an observer that lets the store go) does not wait for itself.
  private let callingThread = Atomic<Int>(0)
  private let folders: @Sendable () -> [String]
  private let ignores: @Sendable (_ folder: String, _ name: String) -> Bool
  private let onChange: @Sendable () -> Void
  private let pollInterval: Duration

  /// The least time between two calls of `onChange`: the first event is passed on at once, and
  /// a burst of commits by other processes (each one an event) costs one catch-up per interval
  /// rather than one per commit, which under several writers took a quarter of all CPU.
  static let quietInterval = Duration.milliseconds(10)

  /// Watches one folder.
  convenience init(folder: URL, pollInterval: Duration = .milliseconds(250), onChange: @escaping @Sendable () -> Void) {
    let path = folder.path
    self.init(folders: { [path] }, pollInterval: pollInterval, onChange: onChange)
  }

  /// Watches the folders `folders` names (paths; those not there are passed over), asked again
  /// after each event. An event about a name that `ignores` accepts in its folder (a sync
  /// engine's temporary file) is no change, where the platform names the file.
  init(
    folders: @escaping @Sendable () -> [String],
    ignoring ignores: @escaping @Sendable (_ folder: String, _ name: String) -> Bool = { _, _ in false },
    pollInterval: Duration = .milliseconds(250), onChange: @escaping @Sendable () -> Void
  ) {
    self.folders = folders
    self.ignores = ignores
    self.onChange = onChange
    self.pollInterval = pollInterval
  }

  /// Whether a folder that came to be watched is a change in the folder it appeared in: a file
  /// written into it before it was watched is seen only then.
  private func isChange(_ folder: String) -> Bool {
    let url = URL(fileURLWithPath: folder)
    return !ignores(url.deletingLastPathComponent().path, url.lastPathComponent)
  }

  /// Signalled once by the watching thread when its watch is in place (every path of `run`).
  private let ready = DispatchSemaphore(value: 0)

  /// Returns once the watch is in place, so that no change made after it returns is missed.
  func start() {
    begin()
    waitUntilWatching()
  }

  /// Starts the watching thread and returns at once; ``waitUntilWatching()`` waits for its
  /// watch. A caller that starts several watchers begins each before it waits for any: on a
  /// loaded machine a new thread waits for a core before it first runs (about 2 ms on this
  /// project's 2 cores), and watchers begun together wait at the same time, not one after another.
  func begin() {
    let thread = Thread { [self] in run(ready) }
    thread.name = "PlainStore.FolderWatcher"
    thread.start()
  }

  /// Returns once the watch ``begin()`` started is in place; called once after it.
  func waitUntilWatching() {
    ready.wait()  // a deadline would let a loaded machine miss a commit
  }

  /// Stops watching; returns once no call of `onChange` is in progress (at once when called
  /// from inside one).
  func stop() {
    stopped.store(true, ordering: .relaxed)
    if callingThread.load(ordering: .acquiring) != Self.currentThread { calling.withLock { _ in } }
  }

  private static var currentThread: Int { ObjectIdentifier(Thread.current).hashValue }

  /// Calls `onChange` unless stopped.
  private func change() {
    calling.withLock { _ in
      guard !isStopped else { return }
      callingThread.store(Self.currentThread, ordering: .releasing)
      defer { callingThread.store(0, ordering: .releasing) }
      onChange()
    }
  }

  private var isStopped: Bool { stopped.load(ordering: .relaxed) }

  private func run(_ ready: DispatchSemaphore) {
    #if os(Linux)
      if watchWithInotify(ready) { return }
    #elseif canImport(Darwin)
      let watching = AppleFileCalls.watchFolders(
        folders, isChange: { [self] in isChange($0) }, change: { [self] in change() }, isStopped: { isStopped }, ready: ready)
      if watching { return }
    #endif
    ready.signal()
    poll()
  }

  private static func sleep(_ duration: Duration) {
    Thread.sleep(forTimeInterval: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
  }

  /// The fallback: look every `pollInterval`.
  private func poll() {
    while !isStopped {
      Self.sleep(pollInterval)
      change()
    }
  }

  #if os(Linux)
    private func watchWithInotify(_ ready: DispatchSemaphore) -> Bool {
      let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      guard fd >= 0 else { return false }
      defer { close(fd) }
      let mask = UInt32(IN_MOVED_TO | IN_CREATE | IN_CLOSE_WRITE | IN_DELETE | IN_ATTRIB)
      var watched: [Int32: String] = [:]  // by watch descriptor
      var missing = false  // a folder asked for is not there (yet): ask again on each wake
      // A folder that is there and cannot be watched (the system's limit of watches is reached):
      // every folder is polled instead, since inotify would never tell of that one.
      var unwatchable = false
      /// Adds a watch for each folder asked for that has none; whether one was added that counts
      /// as a change in its own folder (see ``Self/isChange(_:)``).
      func update() -> Bool {
        var added = false
        missing = false
        let known = Set(watched.values)
        for folder in folders() where !known.contains(folder) {
          let descriptor = inotify_add_watch(fd, folder, mask)
          if descriptor >= 0 {
            watched[descriptor] = folder
            if isChange(folder) { added = true }
          } else if errno == ENOENT || errno == ENOTDIR {
            missing = true
          } else {
            unwatchable = true
          }
        }
        return added
      }
      _ = update()
      guard !unwatchable, !watched.isEmpty || missing else { return false }
      ready.signal()
      var buffer = [UInt8](repeating: 0, count: 8192)
      /// Reads every queued event; whether one of them is a change (not an ignored name).
      let drain = { [ignores] () -> Bool in
        var relevant = false
        while true {
          let count = _FileBytes.readSome(fd, into: &buffer)
          guard count > 0 else { return relevant }
          if !relevant { relevant = Self.hasRelevantEvent(buffer[..<count]) { ignores(watched[$0] ?? "", $1) } }
        }
      }
      var lastCall = ContinuousClock.now - Self.quietInterval
      while !isStopped {
        if unwatchable {
          change()  // what was written into the folder before it was found unwatchable
          poll()
          return true
        }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = Glibc.poll(&descriptor, 1, 100)  // wake every 100 ms to notice stop()
        guard ready > 0 else {
          if missing, update() { change() }
          continue
        }
        var relevant = drain()
        // Events within the quiet interval of the last call are taken together, at its end.
        let due = lastCall + Self.quietInterval
        if relevant, ContinuousClock.now < due {
          Self.sleep(due - .now)
          relevant = drain() || relevant
        }
        if update() { relevant = true }
        guard relevant else { continue }
        change()
        lastCall = .now
      }
      return true
    }

    /// Whether a buffer of inotify events holds one that is not about an ignored name. Each
    /// event is its header (`struct inotify_event`: wd, mask, cookie, len) and `len` bytes of
    /// name, padded with NULs; an event about the folder itself has no name.
    private static func hasRelevantEvent(_ bytes: ArraySlice<UInt8>, _ ignores: (Int32, String) -> Bool) -> Bool {
      let header = 16  // MemoryLayout<inotify_event>.size, its name not counted
      var offset = bytes.startIndex
      while offset + header <= bytes.endIndex {
        let descriptor = Int32(bitPattern: _FileBytes.nativeUInt32(in: bytes, at: offset))
        let length = Int(_FileBytes.nativeUInt32(in: bytes, at: offset + 12))
        let nameBytes = bytes[(offset + header)..<min(bytes.endIndex, offset + header + length)]
        let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
        if name.isEmpty || !ignores(descriptor, name) { return true }
        offset += header + length
      }
      return false
    }
  #endif

}
