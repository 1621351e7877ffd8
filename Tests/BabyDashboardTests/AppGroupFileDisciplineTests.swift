import BabyDashboard
import BabyDashboardTesting
import Foundation
import PlainStore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The app group's sibling files (`Preferences/` with the key-value file and its lock,
/// `WidgetCache/` with the widget's snapshots) follow the store's rules: a symbolic link in
/// place of any of them is refused naming it and nothing is created or read outside the app
/// group; a FIFO in place of a file is refused at once, never waited on.
@Suite struct AppGroupFileDisciplineTests {
  /// An app group and a folder outside it that a planted link points into.
  struct Sandbox {
    let root: TemporaryDirectory
    var group: URL { root.url.appendingPathComponent("group", isDirectory: true) }
    var outside: URL { root.url.appendingPathComponent("outside", isDirectory: true) }
    var preferences: URL { group.appendingPathComponent("Preferences", isDirectory: true) }
    var keyValueFile: URL { preferences.appendingPathComponent("group.test.json") }
    var lockFile: URL { preferences.appendingPathComponent("group.test.json.lock") }
    var widgetCache: URL { group.appendingPathComponent("WidgetCache", isDirectory: true) }
    var snapshotsFile: URL { widgetCache.appendingPathComponent("snapshots.json") }

    init() throws {
      root = try TemporaryDirectory("AppGroupFileDiscipline")
      try FileManager.default.createDirectory(at: root.url.appendingPathComponent("group"), withIntermediateDirectories: true)
      try FileManager.default.createDirectory(at: root.url.appendingPathComponent("outside/existing"), withIntermediateDirectories: true)
      try Data("outside\n".utf8).write(to: root.url.appendingPathComponent("outside/file.json"))
    }

    var keyValues: FileKeyValueStore { FileKeyValueStore(fileURL: keyValueFile) }

    /// Every path under `outside`, with the bytes of its files: to prove nothing was touched.
    func outsideContents() throws -> [String: Data] {
      var contents: [String: Data] = [:]
      for case let relative as String in FileManager.default.enumerator(atPath: outside.path) ?? .init() {
        let url = outside.appendingPathComponent(relative)
        var isFolder: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
        contents[relative] = isFolder.boolValue ? Data() : try Data(contentsOf: url)
      }
      return contents
    }
  }

  enum Place: String, CaseIterable, Sendable {
    case preferencesFolder, keyValueFile, lockFile, widgetCacheFolder, snapshotsFile

    func url(in sandbox: Sandbox) -> URL {
      switch self {
      case .preferencesFolder: sandbox.preferences
      case .keyValueFile: sandbox.keyValueFile
      case .lockFile: sandbox.lockFile
      case .widgetCacheFolder: sandbox.widgetCache
      case .snapshotsFile: sandbox.snapshotsFile
      }
    }

    var isFolder: Bool { self == .preferencesFolder || self == .widgetCacheFolder }
  }

  /// What a planted link points at: something that exists outside, or a name that does not
  /// (which a follower would create).
  enum Target: String, CaseIterable, Sendable { case existing, missing }

  /// The operations that touch each place: reads and writes of the key-value file, the
  /// widget's write and read.
  static func operations(at place: Place, _ sandbox: Sandbox) -> [(String, @Sendable () throws -> Void)] {
    let keyValues = sandbox.keyValues
    let snapshots = BabyWidgetSnapshots(generatedAt: Date(timeIntervalSinceReferenceDate: 0), timeZone: "UTC", babies: [])
    switch place {
    case .preferencesFolder, .keyValueFile:
      return [
        ("set", { try keyValues.set(Data("1".utf8), forKey: "k") }),
        ("read", { _ = try keyValues.data(forKey: "k") }),
      ]
    case .lockFile:
      return [("set", { try keyValues.set(Data("1".utf8), forKey: "k") })]
    case .widgetCacheFolder, .snapshotsFile:
      return [
        ("write", { try snapshots.write(to: sandbox.snapshotsFile) }),
        ("read", { _ = try BabyWidgetSnapshots.read(from: sandbox.snapshotsFile) }),
      ]
    }
  }

  @Test(arguments: Place.allCases, Target.allCases)
  func aSymbolicLinkInPlaceOfAFileOrFolderIsRefusedNamingIt(_ place: Place, _ target: Target) throws {
    let sandbox = try Sandbox()
    defer { sandbox.root.remove() }
    let planted = place.url(in: sandbox)
    try FileManager.default.createDirectory(at: planted.deletingLastPathComponent(), withIntermediateDirectories: true)
    let destination: URL
    switch (target, place.isFolder) {
    case (.existing, true): destination = sandbox.outside.appendingPathComponent("existing")
    case (.existing, false): destination = sandbox.outside.appendingPathComponent("file.json")
    case (.missing, _): destination = sandbox.outside.appendingPathComponent("created-by-a-follower")
    }
    try FileManager.default.createSymbolicLink(at: planted, withDestinationURL: destination)
    let before = try sandbox.outsideContents()

    for (name, operation) in Self.operations(at: place, sandbox) {
      let error = try #require(throws: KeyValueStoreError.self, "\(name)") { try operation() }
      #expect(error.code == .symbolicLink, "\(name): \(error)")
      #expect(error.path == planted.path, "\(name): \(error)")
      #expect(error.description.contains("symbolic link"))
      #expect(try sandbox.outsideContents() == before, "\(name) touched a file outside the app group")
    }
  }

  @Test(arguments: [Place.keyValueFile, .lockFile, .snapshotsFile])
  func aFIFOInPlaceOfAFileIsRefusedAtOnceNotWaitedOn(_ place: Place) throws {
    let sandbox = try Sandbox()
    defer { sandbox.root.remove() }
    let fifo = place.url(in: sandbox)
    try FileManager.default.createDirectory(at: fifo.deletingLastPathComponent(), withIntermediateDirectories: true)
    try #require(mkfifo(fifo.path, 0o600) == 0)

    for (name, operation) in Self.operations(at: place, sandbox) {
      let outcome = Self.run(within: 10, unblocking: fifo, operation)
      switch outcome {
      case .hung:
        Issue.record("\(name) hung on the FIFO at \(fifo.path)")
      case .finished(nil):
        Issue.record("\(name) accepted a FIFO in place of \(fifo.lastPathComponent)")
      case .finished(let error?):
        let failure = try #require(error as? KeyValueStoreError, "\(name): \(error)")
        #expect(failure.code == .notARegularFile, "\(name): \(failure)")
        #expect(failure.path == fifo.path)
      }
    }
  }

  @Test(arguments: [0, -1])
  func aFormatVersionThatWasNeverWrittenIsRefused(_ version: Int) throws {
    let sandbox = try Sandbox()
    defer { sandbox.root.remove() }
    try FileManager.default.createDirectory(at: sandbox.preferences, withIntermediateDirectories: true)
    try Data(#"{"formatVersion":\#(version),"values":{}}"#.utf8).write(to: sandbox.keyValueFile)
    let error = try #require(throws: KeyValueStoreError.self) { try sandbox.keyValues.allKeys() }
    #expect(error.code == .damaged)
    #expect(error.detail.contains("format version \(version)"))

    try FileManager.default.createDirectory(at: sandbox.widgetCache, withIntermediateDirectories: true)
    let text = #"{"babies":[],"formatVersion":\#(version),"generatedAt":"2026-01-01T00:00:00Z","timeZone":"UTC"}"#
    try Data(text.utf8).write(to: sandbox.snapshotsFile)
    let widgetError = try #require(throws: StoreError.self) { try BabyWidgetSnapshots.read(from: sandbox.snapshotsFile) }
    #expect(widgetError.code == .damaged)
  }

  @Test func foldersAreCreated0700AndFiles0600() throws {
    let sandbox = try Sandbox()
    defer { sandbox.root.remove() }
    let nested = sandbox.group.appendingPathComponent("new/Preferences/x.json")
    try FileKeyValueStore(fileURL: nested).set(Data("1".utf8), forKey: "k")
    try BabyWidgetSnapshots(generatedAt: Date(timeIntervalSinceReferenceDate: 0), timeZone: "UTC", babies: [])
      .write(to: sandbox.snapshotsFile)
    for folder in [nested.deletingLastPathComponent(), nested.deletingLastPathComponent().deletingLastPathComponent(), sandbox.widgetCache] {
      #expect(Self.mode(folder) == 0o700, "\(folder.path)")
    }
    for file in [nested, nested.appendingPathExtension("lock"), sandbox.snapshotsFile] {
      #expect(Self.mode(file) == 0o600, "\(file.path)")
    }
  }

  static func mode(_ url: URL) -> mode_t {
    var info = stat()
    guard lstat(url.path, &info) == 0 else { return 0 }
    return info.st_mode & 0o7777
  }

  enum Outcome { case hung, finished((any Error)?) }

  /// Runs `body` on a thread of its own and waits at most `seconds`; a body stuck opening the
  /// FIFO is then released by opening its other end, so that the test ends either way.
  static func run(within seconds: Double, unblocking fifo: URL, _ body: @escaping @Sendable () throws -> Void) -> Outcome {
    final class Box: @unchecked Sendable {  // written by the thread before it signals, read after
      var error: (any Error)?
    }
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      do { try body() } catch { box.error = error }
      done.signal()
    }
    thread.start()
    if done.wait(timeout: .now() + seconds) == .success { return .finished(box.error) }
    let reader = open(fifo.path, O_RDONLY | O_NONBLOCK)
    let writer = open(fifo.path, O_WRONLY | O_NONBLOCK)
    _ = done.wait(timeout: .now() + seconds)
    if reader >= 0 { close(reader) }
    if writer >= 0 { close(writer) }
    return .hung
  }
}
