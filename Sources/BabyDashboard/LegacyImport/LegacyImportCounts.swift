/// What the importer did with one entity's records.
public struct LegacyImportCounts: Sendable, Hashable {
  /// Records in the source.
  public var read: Int
  /// Records written to the store by this run (in a dry run: that would be written).
  public var inserted: Int
  /// Records the store already held (matched by their unique key), left as they were.
  public var alreadyPresent: Int
  /// Records of the source that repeat an earlier one's unique key; the first one counts.
  public var duplicates: Int
  /// Feeds and diapers whose baby is missing or unknown, kept with no baby (always 0 for babies).
  public var orphans: Int

  public init(read: Int = 0, inserted: Int = 0, alreadyPresent: Int = 0, duplicates: Int = 0, orphans: Int = 0) {
    self.read = read
    self.inserted = inserted
    self.alreadyPresent = alreadyPresent
    self.duplicates = duplicates
    self.orphans = orphans
  }
}
