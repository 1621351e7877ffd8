import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Calls `onChange` soon after files appear in a folder or the folder's times change (what the
/// local log's writer does after an append): inotify on Linux, a file-system event source on
/// Apple platforms, polling where neither works. Watches the folder, not a file, because an
/// atomic rename replaces the file and the log starts new ones.
final class FolderWatcher: Sendable {
  private let stopped = Atomic<Bool>(false)
  /// Held for each call of `onChange`, so that ``stop()`` can wait for the one in flight.
  private let calling = Mutex<Void>(())
  /// The thread inside `onChange` (0 when none): a ``stop()`` made from within `onChange` (its
  /// store let go there) must not wait for itself.
  private let callingThread = Atomic<UInt>(0)
  private let folder: URL
  private let onChange: @Sendable () -> Void
  private let pollInterval: Duration

  /// The least time between two calls of `onChange`: the first event is passed on at once, and
  /// a burst of commits by other processes (each one an event) costs one catch-up per interval
  /// rather than one per commit, which under several writers took a quarter of all CPU.
  static let quietInterval = Duration.milliseconds(10)

  init(folder: URL, pollInterval: Duration = .milliseconds(250), onChange: @escaping @Sendable () -> Void) {
    self.folder = folder
    self.onChange = onChange
    self.pollInterval = pollInterval
  }

  /// Returns once the watch is in place, so that no commit made after it returns is missed.
  func start() {
    let ready = DispatchSemaphore(value: 0)
    let thread = Thread { [self] in run(ready) }
    thread.name = "PlainStore.FolderWatcher"
    thread.start()
    ready.wait()  // every path of run() signals it; a deadline would let a loaded machine miss a commit
  }

  /// Returns once no call of `onChange` runs and none will start: the store that call held
  /// (the watcher holds it weakly, and strongly only while it calls) is let go before `stop()`
  /// returns, so a container that stops its watcher in its `deinit` frees its store on its own
  /// thread, never later on the watcher's.
  func stop() {
    stopped.store(true, ordering: .sequentiallyConsistent)
    guard callingThread.load(ordering: .sequentiallyConsistent) != Self.currentThread else { return }
    calling.withLock { _ in }
  }

  private var isStopped: Bool { stopped.load(ordering: .sequentiallyConsistent) }

  /// Calls `onChange` unless stopped; ``stop()`` waits for it.
  private func deliver() {
    calling.withLock { _ in
      guard !isStopped else { return }
      callingThread.store(Self.currentThread, ordering: .sequentiallyConsistent)
      defer { callingThread.store(0, ordering: .sequentiallyConsistent) }
      onChange()
    }
  }

  private static var currentThread: UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }

  private func run(_ ready: DispatchSemaphore) {
    #if os(Linux)
      if watchWithInotify(ready) { return }
    #elseif canImport(Darwin)
      if watchWithDispatchSource(ready) { return }
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
      deliver()
    }
  }

  #if os(Linux)
    private func watchWithInotify(_ ready: DispatchSemaphore) -> Bool {
      let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      guard fd >= 0 else { return false }
      defer { close(fd) }
      let mask = UInt32(IN_MOVED_TO | IN_CREATE | IN_CLOSE_WRITE | IN_DELETE | IN_ATTRIB)
      guard inotify_add_watch(fd, folder.path, mask) >= 0 else { return false }
      ready.signal()
      var buffer = [UInt8](repeating: 0, count: 4096)
      let drain = { while buffer.withUnsafeMutableBytes({ Glibc_read(fd, $0.baseAddress!, $0.count) }) > 0 {} }
      var lastCall = ContinuousClock.now - Self.quietInterval
      while !isStopped {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = Glibc.poll(&descriptor, 1, 100)  // wake every 100 ms to notice stop()
        guard ready > 0 else { continue }
        drain()
        // Events within the quiet interval of the last call are taken together, at its end.
        let due = lastCall + Self.quietInterval
        if ContinuousClock.now < due {
          Self.sleep(due - .now)
          drain()
        }
        deliver()
        lastCall = .now
      }
      return true
    }
  #endif

  #if canImport(Darwin)
    private func watchWithDispatchSource(_ ready: DispatchSemaphore) -> Bool {
      let fd = open(folder.path, O_EVTONLY)
      guard fd >= 0 else { return false }
      let source = DispatchSource.makeFileSystemObjectSource(fileDescriptor: fd, eventMask: [.write, .attrib, .rename, .delete])
      source.setEventHandler { [self] in deliver() }
      source.setCancelHandler { close(fd) }
      source.resume()
      ready.signal()
      while !isStopped { Thread.sleep(forTimeInterval: 0.1) }
      source.cancel()
      return true
    }
  #endif
}
