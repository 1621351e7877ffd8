import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue #13's damage matrix: every file of a seeded app group × every ``StoreDamage`` × a read,
/// `check` and a write, each through the real `babydash` under a deadline.
///
/// Every case must end in one of three ways:
/// - recovered: a cache file was damaged, the command succeeded and showed all data;
/// - refused: exit 65 or 74, the message names the file, and not one byte of the app group
///   changed — never for a file under `local/`, which is a cache and is rebuilt (a symbolic
///   link, refused everywhere in the store, is the one exception);
/// - tolerated: a file of the truth was damaged where the command does not need it, and it
///   succeeded with all data.
/// Every success is checked for data: the command's own output, then an export; a write that
/// exited 0 is in that export, or — when the damage it did not need stops the export — in the
/// export once the damaged file is put back as it was.
/// Anything else broke it: a hang, a crash, another exit status, an empty or short view, a
/// refusal that changed a file or did not name it, a refused cache file, a lost write.
struct DamageMatrix: Sendable {
  enum Command: String, CaseIterable, Sendable {
    case export, check, write

    var arguments: [String] {
      switch self {
      case .export: ["export"]
      case .check: ["check"]
      case .write: ["diaper", "Mia", "pee"]
      }
    }
  }

  enum Outcome: Sendable, Equatable {
    case recovered, refused, tolerated, skipped(String), broke(String)
  }

  struct Case: Sendable {
    var file: String
    var damage: StoreDamage
    var command: Command

    var label: String { "\(file) × \(damage) × \(command)" }
  }

  static let now = "2026-01-15T09:00:00Z"
  static let deviceName = "phone"

  let seed: URL
  let scratch: URL
  let files: [String]
  let baselineExport: String
  let baselineCheck: String
  let exportAfterWrite: String

  /// Seeds an app group the way two devices leave it: this device's babies, feeds and diapers,
  /// the cached amount, the widget snapshot, a compacted cache with a commit after it, and
  /// another device's changes merged in.
  static func make() throws -> DamageMatrix {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("babydash-damage-\(UUID().uuidString)")
    let seed = scratch.appendingPathComponent("seed")
    let other = scratch.appendingPathComponent("other-device")
    try FileManager.default.createDirectory(at: seed, withIntermediateDirectories: true)
    let changes = seed.appendingPathComponent("BabyDashboard.store/changes").path
    let steps: [(URL, String, [String])] = [
      (seed, "2026-01-15T06:00:00Z", ["baby", "add", "Mia", "--created-at", "2026-01-10T08:00:00Z"]),
      (seed, "2026-01-15T06:05:00Z", ["feed", "start", "Mia", "--at", "06:00"]),
      (seed, "2026-01-15T06:30:00Z", ["feed", "finish", "Mia", "--amount", "120ml"]),
      (seed, "2026-01-15T06:40:00Z", ["diaper", "Mia", "poo"]),
      (other, "2026-01-15T07:00:00Z", ["--sync-folder", changes, "baby", "add", "Leo", "--created-at", "2026-01-11T08:00:00Z"]),
      (other, "2026-01-15T07:10:00Z", ["--sync-folder", changes, "diaper", "Leo", "pee"]),
      (seed, "2026-01-15T07:30:00Z", ["status"]),
    ]
    for (group, now, arguments) in steps { try run(group, now, arguments, scratch: scratch, expect: 0) }
    // A cache compacted into segments (a rebuild compacts; the marker a process leaves when it
    // finds the cache damaged asks for one), then one commit after it in the log.
    try Data().write(to: seed.appendingPathComponent("BabyDashboard.store/local/rebuild"))
    try run(seed, "2026-01-15T07:40:00Z", ["check"], scratch: scratch, expect: 0)
    try run(seed, "2026-01-15T08:00:00Z", ["diaper", "Mia", "pee", "--at", "07:45"], scratch: scratch, expect: 0)
    try run(seed, "2026-01-15T08:10:00Z", ["widget"], scratch: scratch, expect: 0)
    try FileManager.default.removeItem(at: other)
    let files = FileTree.snapshot(seed).compactMap { path, entry -> String? in
      if case .file = entry { return path } else { return nil }
    }.sorted()
    guard files.contains(where: { $0.contains("local/segments/") }), files.contains(where: { $0.contains("local/log/") }) else {
      throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "the seed has no segments or log: \(files)"])
    }

    func baseline(_ command: Command, thenExport: Bool = false) throws -> String {
      let copy = scratch.appendingPathComponent("baseline-\(UUID().uuidString)")
      try FileManager.default.copyItem(at: seed, to: copy)
      defer { try? FileManager.default.removeItem(at: copy) }
      let result = try run(copy, now, command.arguments, scratch: scratch, expect: 0)
      return thenExport ? try run(copy, now, ["export"], scratch: scratch, expect: 0).stdout : result.stdout
    }
    return DamageMatrix(
      seed: seed, scratch: scratch, files: files, baselineExport: try baseline(.export),
      baselineCheck: Self.summary(try baseline(.check), in: seed),
      exportAfterWrite: try baseline(.write, thenExport: true))
  }

  func removeAll() {
    // Modes a damage took away would stop the removal.
    if let walker = FileManager.default.enumerator(atPath: scratch.path) {
      for case let relative as String in walker { chmod(scratch.path + "/" + relative, 0o700) }
    }
    try? FileManager.default.removeItem(at: scratch)
  }

  /// How long one babydash run of these tests may take before it counts as a hang: a debug
  /// build under a busy CI's load (several clones at once) takes well over TimedProcess's usual
  /// 30 s to import a thousand objects, or to rebuild a cache after a fault.
  static let deadline: Double = 120

  @discardableResult
  static func run(_ group: URL, _ now: String, _ arguments: [String], scratch: URL, expect: Int32? = nil) throws
    -> TimedProcess.Result
  {
    let result = try TimedProcess.run(
      BabydashProcess.executable, ["--now", now] + arguments,
      environment: ["BABYDASH_APP_GROUP": group.path, "BABYDASH_DEVICE_NAME": deviceName],
      scratch: scratch, timeout: deadline)
    if let expect, result.status != expect {
      throw CocoaError(
        .fileReadUnknown,
        userInfo: [NSLocalizedDescriptionKey: "babydash \(arguments) exited \(String(describing: result.status)): \(result.stderr)"])
    }
    return result
  }

  /// The first line of check's summary without the store's path (each case has its own folder).
  static func summary(_ checkOutput: String, in group: URL) -> String {
    let line = checkOutput.split(separator: "\n").last.map(String.init) ?? ""
    return line.components(separatedBy: ";").first ?? line
  }

  /// An export with the ids it does not share with `known` (the new diaper's random uuid)
  /// replaced by one placeholder, so that two runs of the same write compare equal.
  static func normalized(_ export: String, known: String) -> String {
    let pattern = #"[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}"#
    var result = ""
    var rest = Substring(export)
    while let range = rest.range(of: pattern, options: .regularExpression) {
      let id = rest[range]
      result += rest[..<range.lowerBound] + (known.contains(id) ? String(id) : "<new id>")
      rest = rest[range.upperBound...]
    }
    return result + rest
  }

  /// Whether a file is a cache: rebuilt from the truth when it is lost.
  static func isCache(_ file: String) -> Bool {
    isStoreCache(file) || file.hasPrefix("WidgetCache/")
  }

  /// Whether a file is the store's cache (`local/`), which the README promises is rebuilt when
  /// damaged, never refused.
  static func isStoreCache(_ file: String) -> Bool {
    file.hasPrefix("BabyDashboard.store/local/")
  }

  /// Whether a damaged file must be rebuilt rather than refused: every damage of a file under
  /// `local/` but a symbolic link, which the store refuses wherever it finds one (README,
  /// "Storage faults"), and a newer version, which a newer program on this device wrote and
  /// which this one must not take away from it (PlainStoreTests' DamageTests). Two files of `local/` are no cache and may be refused: the lock, which
  /// every process must open as the same file (replaced while another holds it, two writers
  /// would run at once), and the journal, which holds the change files a power loss may have
  /// taken (thrown away, an acknowledged write could go with it).
  static func mustRebuild(_ item: Case) -> Bool {
    isStoreCache(item.file) && item.damage != .symbolicLink && item.damage != .newerVersion
      && !["BabyDashboard.store/local/lock", "BabyDashboard.store/local/journal"].contains(item.file)
  }

  /// Whether a file, once gone, may leave the export's cached amounts empty (never different):
  /// the preferences file, whose amounts are a cache of the feeds (backfilled from the store)
  /// and whose loss is "empty preferences", as its error messages tell a person to choose.
  static func mayEmptyCachedAmounts(_ item: Case) -> Bool {
    item.file.hasPrefix("Preferences/") && item.file.hasSuffix(".json") && item.damage == .missing
  }

  /// Whether `actual` is `expected`, or (when `mayEmpty`) `expected` with no cached amounts.
  static func sameData(_ actual: String, _ expected: String, mayEmpty: Bool) -> Bool {
    if actual == expected { return true }
    guard mayEmpty, let range = actual.range(of: cachedAmounts, options: .regularExpression) else { return false }
    guard !actual[range].contains("{") else { return false }  // only an empty list stands in
    let emptied = expected.replacingOccurrences(of: cachedAmounts, with: String(actual[range]), options: .regularExpression)
    return actual == emptied
  }

  private static let cachedAmounts = #""lastFeedAmounts" : \[[^\]]*\]"#

  /// How a message names a file: its folder and its name.
  static func name(_ file: String) -> String {
    file.split(separator: "/").suffix(2).joined(separator: "/")
  }

  /// Every case of `damages`; `DAMAGE_MATRIX_ONLY=text` keeps those whose "file × damage ×
  /// command" holds it.
  func cases(_ damages: [StoreDamage]) -> [Case] {
    let only = ProcessInfo.processInfo.environment["DAMAGE_MATRIX_ONLY"]
    return files.flatMap { file in
      damages.flatMap { damage in Command.allCases.map { Case(file: file, damage: damage, command: $0) } }
    }.filter { only == nil || $0.label.contains(only!) }
  }

  /// Runs one case on its own copy of the seed.
  func run(_ item: Case) -> Outcome {
    do {
      return try attempt(item)
    } catch {
      return .broke("the harness failed: \(error)")
    }
  }

  private func attempt(_ item: Case) throws -> Outcome {
    let folder = scratch.appendingPathComponent("case-\(UUID().uuidString)")
    let group = folder.appendingPathComponent("group")
    let outside = folder.appendingPathComponent("outside")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer {
      chmod(group.appendingPathComponent(item.file).path, 0o600)
      try? FileManager.default.removeItem(at: folder)
    }
    try FileManager.default.copyItem(at: seed, to: group)
    if let reason = try item.damage.apply(to: group.appendingPathComponent(item.file), outside: outside) {
      return .skipped(reason)
    }
    let before = FileTree.snapshot(group)
    let outsideBefore = FileTree.snapshot(outside)
    let result = try Self.run(group, Self.now, item.command.arguments, scratch: folder)
    guard let status = result.status else { return .broke("hang: killed after the deadline") }
    if result.signalled || result.stderr.contains("Fatal error") { return .broke("crash: \(result.stderr.suffix(300))") }
    if FileTree.snapshot(outside) != outsideBefore { return .broke("wrote outside the app group, through the link") }
    switch status {
    case 65, 74:
      let changed = FileTree.differences(before, FileTree.snapshot(group))
      guard result.stderr.contains(Self.name(item.file)) else {
        return .broke("exit \(status) without naming \(Self.name(item.file)): \(result.stderr.prefix(400))")
      }
      guard changed.isEmpty else {
        return .broke("refused (exit \(status)) but changed: \(changed.joined(separator: "; ").prefix(400))")
      }
      guard !Self.mustRebuild(item) else {
        return .broke("a damaged cache file was refused (exit \(status)), not rebuilt: \(result.stderr.prefix(300))")
      }
      return .refused
    case 0:
      switch item.command {
      case .export:
        guard Self.sameData(result.stdout, baselineExport, mayEmpty: Self.mayEmptyCachedAmounts(item)) else { return .broke("export succeeded with other data (an empty view or a loss)") }
      case .check:
        let summary = Self.summary(result.stdout, in: group)
        guard summary == baselineCheck else { return .broke("check passed with other counts: \(summary)") }
      case .write:
        break
      }
      if item.command == .export { return Self.isCache(item.file) ? .recovered : .tolerated }
      // What a person sees next, with the damage still there (or repaired by the command).
      let after = try Self.run(group, Self.now, ["export"], scratch: folder)
      let expected = item.command == .write ? exportAfterWrite : baselineExport
      guard after.status == 0 || after.status == 65 || after.status == 74 else {
        return .broke("the export after it exited \(String(describing: after.status)): \(after.stderr.prefix(300))")
      }
      if after.status == 0,
        !Self.sameData(
          Self.normalized(after.stdout, known: baselineExport), Self.normalized(expected, known: baselineExport),
          mayEmpty: Self.mayEmptyCachedAmounts(item))
      {
        return .broke("exit 0, but the export after it holds other data (a loss or an empty view)")
      }
      if after.status != 0 {
        // The damage the command did not need stops the export: a cache file must not, and a
        // write it acknowledged must be there once the file is put back.
        if Self.mustRebuild(item) {
          return .broke("exit 0, then the export refused the damaged cache file (exit \(after.status!)): \(after.stderr.prefix(300))")
        }
        if item.command == .write, let lost = try writeLostOnceRepaired(item, group: group, folder: folder) { return .broke(lost) }
      }
      return Self.isCache(item.file) ? .recovered : .tolerated
    default:
      return .broke("exit \(status): \(result.stderr.prefix(400))")
    }
  }

  /// Puts the damaged file back as the seed holds it and exports: nil when the export holds
  /// what the write added, else why not.
  private func writeLostOnceRepaired(_ item: Case, group: URL, folder: URL) throws -> String? {
    let damaged = group.appendingPathComponent(item.file)
    chmod(damaged.path, 0o600)
    try? FileManager.default.removeItem(at: damaged)
    try FileManager.default.createDirectory(at: damaged.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: seed.appendingPathComponent(item.file), to: damaged)
    let repaired = try Self.run(group, Self.now, ["export"], scratch: folder)
    guard repaired.status == 0 else {
      return "exit 0, and with the damaged file put back the export still fails (exit \(String(describing: repaired.status))): \(repaired.stderr.prefix(300))"
    }
    guard
      Self.sameData(
        Self.normalized(repaired.stdout, known: baselineExport), Self.normalized(exportAfterWrite, known: baselineExport),
        mayEmpty: Self.mayEmptyCachedAmounts(item))
    else {
      return "exit 0, but with the damaged file put back the export does not hold the write (an acknowledged write lost)"
    }
    return nil
  }
}
