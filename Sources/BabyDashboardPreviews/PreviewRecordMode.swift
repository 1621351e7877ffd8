/// When the preview tests write renderings into `Previews/`: swift-snapshot-testing's
/// `SNAPSHOT_TESTING_RECORD` convention.
public enum PreviewRecordMode: String, Sendable, Hashable, CaseIterable {
  /// Write every preview whose file differs or is missing.
  case all
  /// Write only previews with no file yet (the default off CI).
  case missing
  /// Write the previews that are missing or drifted.
  case failed
  /// Write nothing (always on CI).
  case never

  /// The mode the environment asks for: `never` when `CI` is true (whatever else is set), else
  /// `SNAPSHOT_TESTING_RECORD`, else `missing`.
  ///
  /// - Throws: ``PreviewError`` for a value of `SNAPSHOT_TESTING_RECORD` that names no mode.
  public static func fromEnvironment(_ environment: [String: String]) throws -> PreviewRecordMode {
    if let ci = environment["CI"]?.lowercased(), ["true", "1", "yes"].contains(ci) { return .never }
    guard let value = environment["SNAPSHOT_TESTING_RECORD"], !value.isEmpty else { return .missing }
    guard let mode = PreviewRecordMode(rawValue: value.lowercased()) else {
      throw PreviewError(
        "SNAPSHOT_TESTING_RECORD='\(value)' is not a record mode: use all, missing, failed or never")
    }
    return mode
  }
}
