import Foundation

/// The app group the app, its widget and the `babydash` tool share, and where its folder is.
///
/// DEBUG builds use `group.sungdoo.babyDashboard.dev`, RELEASE builds
/// `group.sungdoo.babyDashboard`, so a development build never touches real data. The folder
/// holds the store (`BabyDashboard.store/`), the key-value file (`Preferences/<group>.json`) and
/// the widget's snapshots (`WidgetCache/snapshots.json`).
///
/// ```swift
/// let folder = try AppGroup.current.resolve(argument: options.appGroup,
///                                           environment: ProcessInfo.processInfo.environment)
/// ```
public struct AppGroup: Sendable, Hashable, CustomStringConvertible {
  /// The group identifier, e.g. `group.sungdoo.babyDashboard`.
  public var identifier: String

  /// Creates an app group with any identifier (tests use their own).
  public init(identifier: String) {
    self.identifier = identifier
  }

  /// The group of RELEASE builds.
  public static let release = AppGroup(identifier: "group.sungdoo.babyDashboard")
  /// The group of DEBUG builds.
  public static let debug = AppGroup(identifier: "group.sungdoo.babyDashboard.dev")

  /// The group of this build: ``debug`` in DEBUG builds, ``release`` otherwise.
  public static var current: AppGroup {
    #if DEBUG
      return .debug
    #else
      return .release
    #endif
  }

  /// The processes that share the group's store, as a save that waits too long for its lock
  /// names them (``StoreOptions/lockHolderHint``).
  public static let lockHolders = "the app, its widget or another babydash"

  /// The environment variable that overrides the group folder: `BABYDASH_APP_GROUP`.
  public static let environmentVariable = "BABYDASH_APP_GROUP"

  public var description: String { identifier }

  /// The group's folder.
  ///
  /// In order: `argument` (e.g. `--app-group DIR`) if given and not empty; else
  /// `BABYDASH_APP_GROUP` from `environment`; else the platform's place. On Apple platforms that
  /// is the container of the security application group; elsewhere `$XDG_DATA_HOME/<group>` if
  /// `XDG_DATA_HOME` is an absolute path, else `$HOME/.local/share/<group>`. A relative override
  /// is taken from the current directory, and a leading `~/` from `HOME`. Nothing is created here.
  /// - Throws: ``AppGroupError`` on Apple platforms when the group has no container (the
  ///   entitlement is missing): never a folder of this process's own, which the app's other
  ///   processes would not share.
  public func resolve(argument: String?, environment: [String: String]) throws -> URL {
    if let argument, !argument.isEmpty {
      return Self.directoryURL(forPath: argument, environment: environment)
    }
    if let path = environment[Self.environmentVariable], !path.isEmpty {
      return Self.directoryURL(forPath: path, environment: environment)
    }
    return try platformDirectory(environment: environment)
  }

  /// Where the group's folder is when nothing overrides it, as the help and the README say it:
  /// the app group's container on Apple platforms; elsewhere `$XDG_DATA_HOME/<group>` or
  /// `~/.local/share/<group>`.
  public var defaultLocationText: String {
    #if canImport(Darwin)
      return "the app group's container (\(identifier))"
    #else
      return "~/.local/share/\(identifier) ($XDG_DATA_HOME/\(identifier) when XDG_DATA_HOME is set)"
    #endif
  }

  /// The store folder inside the group folder: `BabyDashboard.store/`.
  public static func storeURL(in groupDirectory: URL) -> URL {
    groupDirectory.appendingPathComponent("BabyDashboard.store", isDirectory: true)
  }

  /// The key-value file inside the group folder: `Preferences/<group>.json`.
  public func keyValueFileURL(in groupDirectory: URL) -> URL {
    groupDirectory
      .appendingPathComponent("Preferences", isDirectory: true)
      .appendingPathComponent("\(identifier).json", isDirectory: false)
  }

  /// The widget's snapshot file inside the group folder: `WidgetCache/snapshots.json`.
  public static func widgetSnapshotsURL(in groupDirectory: URL) -> URL {
    groupDirectory
      .appendingPathComponent("WidgetCache", isDirectory: true)
      .appendingPathComponent("snapshots.json", isDirectory: false)
  }

  private func platformDirectory(environment: [String: String]) throws -> URL {
    #if canImport(Darwin)
      // containerURL(forSecurityApplicationGroupIdentifier:): iOS 7, macOS 10.8, watchOS 2, tvOS 9.
      return try groupContainer(FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: identifier))
    #else
      // The XDG base-directory spec says a relative XDG_DATA_HOME is invalid and to be ignored.
      if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
        return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent(identifier, isDirectory: true)
      }
      return Self.home(environment)
        .appendingPathComponent(".local/share", isDirectory: true)
        .appendingPathComponent(identifier, isDirectory: true)
    #endif
  }

  /// The group's container as the platform reported it.
  /// - Throws: ``AppGroupError`` when there is none.
  func groupContainer(_ url: URL?) throws -> URL {
    guard let url else { throw AppGroupError(identifier: identifier) }
    return url
  }

  private static func home(_ environment: [String: String]) -> URL {
    if let home = environment["HOME"], home.hasPrefix("/") {
      return URL(fileURLWithPath: home, isDirectory: true)
    }
    // NSHomeDirectory: FileManager's current-user home property is macOS-only.
    return URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true)
  }

  private static func directoryURL(forPath path: String, environment: [String: String]) -> URL {
    if path == "~" { return home(environment) }
    if path.hasPrefix("~/") {
      return home(environment).appendingPathComponent(String(path.dropFirst(2)), isDirectory: true)
    }
    return URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
  }
}
