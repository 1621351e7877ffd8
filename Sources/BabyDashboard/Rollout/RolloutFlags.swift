import Foundation

/// The rollout flags as this device resolved them: each flag's value, where it came from, and
/// this device's cohort and group.
///
/// A flag's setting comes from, in order: the flags document in the app group
/// (``FlagDocument``, `Rollout/flags.json`); else the older per-device switch in the app group's
/// key-value store (`featureFlag.<name>`, see ``FeatureFlags/load(from:)``); else the built-in
/// default (``FeatureFlags/Flag/builtIn``). A damaged document is refused whole
/// (``documentProblem`` names it) and the other sources are used. The setting is then applied to
/// this device: a cohort percentage is on for the ``DeviceCohort/Group/enabled`` group only, and
/// a flag is off in an app older than its minimum version.
///
/// ```swift
/// let rollout = try RolloutFlags.load(inAppGroup: folder, keyValueStore: keyValues,
///                                     deviceID: deviceID, appVersion: AppVersion("2.1"))
/// let flags = rollout.flags          // what the app obeys
/// ```
public struct RolloutFlags: Sendable, Equatable {
  /// Where a flag's setting came from.
  public enum Source: String, Sendable, Hashable {
    /// The flags document, `Rollout/flags.json`.
    case document
    /// The key-value store's `featureFlag.<name>`.
    case preferences
    /// The built-in default.
    case builtIn

    /// In words, as the launch report and `babydash flags` show it: `flags.json`, `preferences`, `built-in`.
    public var text: String {
      switch self {
      case .document: return "flags.json"
      case .preferences: return "preferences"
      case .builtIn: return "built-in"
      }
    }
  }

  /// One flag, resolved for this device.
  public struct Value: Sendable, Hashable {
    public var flag: FeatureFlags.Flag
    /// The setting: state, owner, minimum app version.
    public var setting: FlagDocument.Entry
    public var source: Source
    /// This device's group under the setting (``DeviceCohort/Group/outside`` without a cohort,
    /// or in an app older than the flag's minimum version).
    public var group: DeviceCohort.Group
    /// Whether the flag is on for this device.
    public var isOn: Bool
    /// Why it is on or off here, in words.
    public var reason: String
  }

  /// Every flag, in ``FeatureFlags/Flag/allCases`` order.
  public var values: [Value]
  /// This device's cohort, or `nil` when it has no device id yet.
  public var cohort: DeviceCohort?
  /// The app version the minimums were checked against, or `nil` (not checked).
  public var appVersion: AppVersion?
  /// Why the flags document was refused, or `nil`.
  public var documentProblem: KeyValueStoreError?
  /// Flags the document sets that this version does not know (ignored).
  public var unknownFlags: [String]

  /// The flags as the app obeys them.
  public var flags: FeatureFlags {
    var flags = FeatureFlags.defaults
    for value in values { flags[value.flag] = value.isOn }
    return flags
  }

  /// The resolved value of `flag`.
  public subscript(flag: FeatureFlags.Flag) -> Value {
    values.first { $0.flag == flag }!
  }

  /// Resolves the flags from their sources (the rule; ``load(inAppGroup:keyValueStore:deviceID:appVersion:)``
  /// reads the sources).
  public static func resolve(
    document: Result<FlagDocument?, KeyValueStoreError>, preferences: [FeatureFlags.Flag: Bool],
    cohort: DeviceCohort?, appVersion: AppVersion?
  ) -> RolloutFlags {
    let accepted = try? document.get()
    var problem: KeyValueStoreError?
    if case .failure(let error) = document { problem = error }
    var values: [Value] = []
    for flag in FeatureFlags.Flag.allCases {
      let setting: FlagDocument.Entry
      let source: Source
      if let entry = accepted?.entries[flag] {
        (setting, source) = (entry, .document)
      } else if let on = preferences[flag] {
        (setting, source) = (FlagDocument.Entry(state: on ? .on : .off, owner: "this device's switch"), .preferences)
      } else {
        (setting, source) = (flag.builtIn, .builtIn)
      }
      var group = cohort.map { $0.group(under: setting.state) } ?? (setting.state == .on ? .enabled : .outside)
      var isOn = group == .enabled
      var reason: String
      switch (setting.state, group) {
      case (.off, _): reason = "off for every device"
      case (.on, _): reason = "on for every device"
      case (.cohort, .enabled): reason = "on: cohort \(cohort!.number) is below \(setting.state.percent)"
      case (.cohort, .control): reason = "off: cohort \(cohort!.number) is in the control group"
      case (.cohort, .outside):
        reason = cohort.map { "off: cohort \($0.number) is not reached yet" } ?? "off: this device has no cohort yet (no device id)"
      }
      if isOn, let minimum = setting.minimumAppVersion, let appVersion, appVersion < minimum {
        // Not in the comparison either: its figures would be an older app's.
        (isOn, group) = (false, .outside)
        reason = "off: app \(appVersion) is older than the \(minimum) it needs"
      }
      values.append(Value(flag: flag, setting: setting, source: source, group: group, isOn: isOn, reason: reason))
    }
    return RolloutFlags(
      values: values, cohort: cohort, appVersion: appVersion, documentProblem: problem,
      unknownFlags: accepted?.unknownFlags ?? [])
  }

  /// Reads the flags document from the app group folder and the per-device switches from
  /// `keyValueStore`, and resolves them for this device.
  ///
  /// Never fails on the document: a damaged one is reported in ``documentProblem``.
  /// - Throws: ``KeyValueStoreError`` when the key-value store cannot be read.
  public static func load(
    inAppGroup groupDirectory: URL, keyValueStore: any KeyValueStore, deviceID: String?, appVersion: AppVersion?
  ) throws -> RolloutFlags {
    let document: Result<FlagDocument?, KeyValueStoreError>
    do {
      document = .success(try FlagDocument.load(from: FlagDocument.url(in: groupDirectory)))
    } catch let error as KeyValueStoreError {
      document = .failure(error)
    }
    var preferences: [FeatureFlags.Flag: Bool] = [:]
    let switches = try FeatureFlags.load(from: keyValueStore)
    for flag in FeatureFlags.Flag.allCases where try keyValueStore.data(forKey: flag.key) != nil {
      preferences[flag] = switches[flag]
    }
    return resolve(document: document, preferences: preferences, cohort: deviceID.map(DeviceCohort.init), appVersion: appVersion)
  }

  /// The groups of this device, by flag name: what the telemetry records beside its counts.
  public var groups: [String: DeviceCohort.Group] {
    Dictionary(uniqueKeysWithValues: values.map { ($0.flag.rawValue, $0.group) })
  }
}
