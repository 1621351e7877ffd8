import ArgumentParsing
import BabyDashboard
import BabyDashboardText
import Foundation

/// `babydash flags` and `flags set`: the rollout flags as this device resolves them, and the
/// flags document in the app group that sets them.
enum FlagsCommands {
  static let all = [show, set]

  static let appVersion = Option<AppVersionArgument>(
    "--app-version", "VERSION", help: "the app version to check each flag's minimum against (default: not checked)")
  static let owner = Option<String>("--owner", "TEXT", help: "who owns the flag, or why it is set so (kept in the document)")
  static let minimumAppVersion = Option<AppVersionArgument>(
    "--minimum-app-version", "VERSION", help: "the oldest app version the flag may be on in")

  static let show = Command(
    words: ["flags"], synopsis: "[--app-version VERSION]",
    summary: "Show each rollout flag, where its value comes from, and this device's cohort and group.",
    options: [appVersion.spec],
    details: """
      A flag's value comes from the flags document DIR/Rollout/flags.json (what the app fetched,
      or a hand edit), else this device's switch in the preferences, else the built-in default.
      A cohort percentage is on for the devices whose cohort (0-99, a hash of the device id) is
      below it; the control group is the same number of cohorts just above. A damaged document
      is shown as refused (exit 65) and the other sources are used.
      The device id is $BABYDASH_DEVICE_ID, else the one the first `babydash launch` kept.

      Examples:
        babydash flags
        babydash flags --app-version 2.1
      """
  ) { invocation in
    let session = invocation.session
    let rollout = try session.rolloutFlags(appVersion: try invocation.value(appVersion)?.version)
    try invocation.output.print(text(rollout, documentPath: FlagDocument.url(in: session.appGroupDirectory).path))
    if let problem = rollout.documentProblem { throw CommandLineError.data(problem.description) }
  }

  static let set = Command(
    words: ["flags", "set"], synopsis: "NAME off|on|PERCENT [--owner TEXT] [--minimum-app-version VERSION]",
    summary: "Set a rollout flag in the flags document (written atomically; other flags kept).",
    options: [owner.spec, minimumAppVersion.spec],
    arguments: 2...2,
    details: """
      NAME is one of: \(FeatureFlags.Flag.allCases.map(\.rawValue).joined(separator: ", ")).
      PERCENT (0-100, e.g. 20 or 20%) turns it on for that share of devices, by cohort.

      Examples:
        babydash flags set legacyImporter 20 --owner "Sungdoo: Phase B" --minimum-app-version 2.1
        babydash flags set lastFeedAmountCache off
      """
  ) { invocation in
    let name = invocation.arguments[0]
    guard let flag = FeatureFlags.Flag(rawValue: name) else {
      throw invocation.usageError(
        "no flag '\(name)': the flags are \(FeatureFlags.Flag.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    guard let state = FlagState(text: invocation.arguments[1]) else {
      throw invocation.usageError("bad state '\(invocation.arguments[1])' for \(name): expected \(FlagState.spelling)")
    }
    let owner = try invocation.value(owner)
    let minimum = try invocation.value(minimumAppVersion)?.version
    let url = FlagDocument.url(in: invocation.session.appGroupDirectory)
    let document = try FlagDocument.modify(at: url) { document in
      var entry = document.entries[flag] ?? FlagDocument.Entry(state: state)
      entry.state = state
      if let owner { entry.owner = owner }
      if let minimum { entry.minimumAppVersion = minimum }
      document.entries[flag] = entry
    }
    try invocation.output.print("Set \(name) to \(state) in \(url.path).")
    if let entry = document.entries[flag], entry.owner != nil || entry.minimumAppVersion != nil {
      try invocation.output.print("  " + ownerText(entry))
    }
  }

  /// The table `babydash flags` prints.
  static func text(_ rollout: RolloutFlags, documentPath: String) -> String {
    var rows = [["flag", "state", "source", "here", "group", "why"]]
    for value in rollout.values {
      rows.append([
        value.flag.rawValue, value.setting.state.description, value.source.text, value.isOn ? "on" : "off",
        value.group.rawValue, value.reason,
      ])
    }
    let widths = (0..<rows[0].count - 1).map { column in rows.map { TextLayout.width($0[column]) }.max() ?? 0 }
    var lines = rows.map { row in
      (0..<row.count - 1).map { TextLayout.pad(row[$0], to: widths[$0]) }.joined(separator: "  ") + "  " + row[row.count - 1]
    }
    for value in rollout.values where value.setting.owner != nil || value.setting.minimumAppVersion != nil {
      lines.append("\(value.flag.rawValue): \(ownerText(value.setting))")
    }
    if let cohort = rollout.cohort {
      lines.append("this device: cohort \(cohort.number) (device id \(cohort.deviceID))")
    } else {
      lines.append("this device: no cohort yet (no device id: the first `babydash launch` takes one, or set $BABYDASH_DEVICE_ID)")
    }
    lines.append(rollout.appVersion.map { "app version: \($0)" } ?? "app version: not given (minimum versions not checked)")
    if let problem = rollout.documentProblem {
      lines.append("flags document: refused (\(problem.kind)), see below")
    } else {
      lines.append("flags document: \(documentPath)")
    }
    if !rollout.unknownFlags.isEmpty {
      lines.append("ignored (unknown to this version): \(rollout.unknownFlags.joined(separator: ", "))")
    }
    return lines.joined(separator: "\n")
  }

  static func ownerText(_ entry: FlagDocument.Entry) -> String {
    [entry.owner.map { "owner \($0.debugDescription)" }, entry.minimumAppVersion.map { "from app \($0)" }]
      .compactMap { $0 }.joined(separator: ", ")
  }
}

/// An app version on the command line: `2.1`, `2.1.3`.
struct AppVersionArgument: ExpressibleByArgument {
  let version: AppVersion

  init(argument: String) throws(ArgumentValueError) {
    guard let version = AppVersion(argument) else { throw ArgumentValueError(reason: "a version such as 2.1 or 2.1.3") }
    self.version = version
  }
}

extension Session {
  /// The environment variable that gives this device's id for the rollout cohorts.
  static let deviceIDVariable = "BABYDASH_DEVICE_ID"

  /// This device's id for the cohorts: `$BABYDASH_DEVICE_ID`, else the one kept in the
  /// preferences; with `taking`, one is taken and kept when there is none.
  func rolloutDeviceID(taking: Bool) throws -> String? {
    if let id = environment[Self.deviceIDVariable], !id.isEmpty { return id }
    return taking ? try DeviceCohort.deviceID(in: keyValueStore) : try DeviceCohort.storedDeviceID(in: keyValueStore)
  }

  /// The rollout flags as this device resolves them.
  func rolloutFlags(appVersion: AppVersion?, takingDeviceID: Bool = false) throws -> RolloutFlags {
    try RolloutFlags.load(
      inAppGroup: appGroupDirectory, keyValueStore: keyValueStore, deviceID: try rolloutDeviceID(taking: takingDeviceID),
      appVersion: appVersion)
  }
}
