extension LegacyExport {
  /// Checks what decoding cannot: no negative amount, a positive feed term.
  ///
  /// The importer runs it on every document, whichever reader produced it, before it writes
  /// anything.
  /// - Throws: ``LegacyImportError`` with ``LegacyImportError/Code/badData`` naming the record.
  public func validate(source: String) throws {
    func bad(_ path: String, _ detail: String) -> LegacyImportError {
      LegacyImportError(
        code: .badData, source: source, path: path,
        detail: detail + " — nothing was imported; fix the record or export again.")
    }
    guard format == Self.formatName else {
      throw bad("format", "\(format.debugDescription) is not a legacy export; expected \"\(Self.formatName)\"")
    }
    guard version <= Self.currentVersion else {
      throw LegacyImportError(
        code: .newerVersion(version), source: source, path: "version",
        detail: "this babydash reads format version \(Self.currentVersion) and older — update babydash to import it; nothing was imported.")
    }
    for (index, baby) in babyProfiles.enumerated() {
      guard baby.feedTerm.isFinite, baby.feedTerm > 0 else {
        throw bad("babyProfiles[\(index)].feedTerm", "\(baby.feedTerm) is not a feed term; expected a positive number of seconds")
      }
      if let value = baby.lastFeedAmountValue, !(value.isFinite && value >= 0) {
        throw bad("babyProfiles[\(index)].lastFeedAmountValue", "\(value) is not an amount; expected zero or more")
      }
    }
    for (index, feed) in feedSessions.enumerated() {
      if let value = feed.amountValue, !(value.isFinite && value >= 0) {
        throw bad("feedSessions[\(index)].amountValue", "\(value) is not an amount; expected zero or more")
      }
    }
  }
}
