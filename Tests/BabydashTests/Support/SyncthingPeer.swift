import Foundation

/// One real Syncthing instance for a test, on 127.0.0.1 only: discovery, relays, NAT traversal,
/// usage reporting, crash reporting and upgrades off, configured over its REST API (its
/// `cli config devices add` panics in 1.19.2). Stopped by `stop()`, by its process id.
final class SyncthingPeer {
  let home: URL
  let deviceID: String
  let apiKey = "babydash-test-\(UUID().uuidString.prefix(8))"
  let guiPort: Int
  let syncPort: Int
  private var process: Process?

  /// The `syncthing` executable on PATH, if there is one.
  static let executable: URL? = {
    let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    return paths.map { URL(fileURLWithPath: String($0)).appendingPathComponent("syncthing") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }()

  init(home: URL, guiPort: Int, syncPort: Int) throws {
    guard let executable = Self.executable else { throw PeerError("syncthing is not installed") }
    self.home = home
    self.guiPort = guiPort
    self.syncPort = syncPort
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    let output = try Self.run(executable, ["generate", "--home=\(home.path)", "--no-default-folder"])
    guard let line = output.split(separator: "\n").first(where: { $0.contains("Device ID:") }) else {
      throw PeerError("syncthing generate printed no device id: \(output)")
    }
    deviceID = line.components(separatedBy: "Device ID:")[1].trimmingCharacters(in: .whitespaces)
    try loopbackOnly()
  }

  /// Rewrites config.xml before the first start, so nothing ever leaves 127.0.0.1.
  private func loopbackOnly() throws {
    let url = home.appendingPathComponent("config.xml")
    var xml = try String(contentsOf: url, encoding: .utf8)
    let settings: [(String, String)] = [
      ("listenAddress", "tcp://127.0.0.1:\(syncPort)"), ("globalAnnounceEnabled", "false"), ("localAnnounceEnabled", "false"),
      ("relaysEnabled", "false"), ("natEnabled", "false"), ("startBrowser", "false"), ("urAccepted", "-1"),
      ("autoUpgradeIntervalH", "0"), ("crashReportingEnabled", "false"), ("apikey", apiKey),
    ]
    for (tag, value) in settings {
      guard let range = xml.range(of: "<\(tag)>[^<]*</\(tag)>", options: .regularExpression) else {
        throw PeerError("config.xml has no <\(tag)>")
      }
      xml.replaceSubrange(range, with: "<\(tag)>\(value)</\(tag)>")
    }
    // The GUI's address is the first <address> inside <gui>, not a device's.
    guard let gui = xml.range(of: "<gui "),
      let address = xml.range(of: "<address>[^<]*</address>", options: .regularExpression, range: gui.upperBound..<xml.endIndex)
    else { throw PeerError("config.xml has no <gui><address>") }
    xml.replaceSubrange(address, with: "<address>127.0.0.1:\(guiPort)</address>")
    try Data(xml.utf8).write(to: url)
  }

  func start() throws {
    let process = Process()
    process.executableURL = Self.executable
    process.arguments = ["serve", "--home=\(home.path)", "--no-browser", "--no-restart"]
    var environment = ProcessInfo.processInfo.environment
    environment["STNODEFAULTFOLDER"] = "1"
    environment["STNOUPGRADE"] = "1"
    environment["STNORESTART"] = "1"  // no monitor process: the one started is the one stopped
    process.environment = environment
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    self.process = process
    let deadline = Date().addingTimeInterval(60)
    while (try? rest("GET", "/rest/system/ping")) == nil {
      guard Date() < deadline, process.isRunning else {
        stop()
        throw PeerError("syncthing on port \(guiPort) did not answer")
      }
      usleep(200_000)
    }
  }

  /// Shuts it down over REST, then makes sure: only this test's own process is ever killed.
  func stop() {
    guard let process else { return }
    _ = try? rest("POST", "/rest/system/shutdown")
    let deadline = Date().addingTimeInterval(10)
    while process.isRunning && Date() < deadline { usleep(100_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    self.process = nil
  }

  func addDevice(_ peer: SyncthingPeer) throws {
    try rest("POST", "/rest/config/devices", #"{"deviceID":"\#(peer.deviceID)","name":"peer","addresses":["tcp://127.0.0.1:\#(peer.syncPort)"]}"#)
  }

  func shareFolder(id: String, path: URL, with peer: SyncthingPeer) throws {
    try rest(
      "POST", "/rest/config/folders",
      #"{"id":"\#(id)","label":"\#(id)","path":"\#(path.path)","type":"sendreceive","fsWatcherEnabled":true,"fsWatcherDelayS":1,"rescanIntervalS":2,"devices":[{"deviceID":"\#(deviceID)"},{"deviceID":"\#(peer.deviceID)"}]}"#)
  }

  func pause(_ peer: SyncthingPeer) throws { try rest("POST", "/rest/system/pause?device=\(peer.deviceID)") }
  func resume(_ peer: SyncthingPeer) throws { try rest("POST", "/rest/system/resume?device=\(peer.deviceID)") }
  func rescan(_ folder: String) throws { try rest("POST", "/rest/db/scan?folder=\(folder)") }

  /// Calls the REST API through curl, which the machine has: returns the body, throws on any
  /// HTTP or connection error, naming the call. A call may take a minute: with three CI runs
  /// side by side on 2 cores, a configuration change took syncthing over 10 s to answer (the
  /// test's time limit still bounds the whole).
  @discardableResult
  func rest(_ method: String, _ path: String, _ body: String? = nil) throws -> String {
    var arguments = ["-sS", "-f", "-m", "60", "-X", method, "-H", "X-API-Key: \(apiKey)", "http://127.0.0.1:\(guiPort)\(path)"]
    if let body { arguments += ["-H", "Content-Type: application/json", "--data", body] }
    do {
      return try Self.run(URL(fileURLWithPath: "/usr/bin/env"), ["curl"] + arguments)
    } catch let error as PeerError {
      throw PeerError("\(method) \(path) on port \(guiPort): \(error)")
    }
  }

  static func run(_ executable: URL, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(["STNODEFAULTFOLDER": "1"]) { $1 }
    let out = Pipe()
    process.standardOutput = out
    process.standardError = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    guard process.terminationStatus == 0 else { throw PeerError("\(arguments.prefix(3).joined(separator: " ")) failed: \(text)") }
    return text
  }

  struct PeerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }
}
