import Foundation

/// One feed of a baby: started, maybe finished, maybe with an amount and a memo.
///
/// The amount is stored as a value and a unit symbol, as SwiftData stored it; ``amount`` reads it
/// as a `Measurement<UnitVolume>`. The store keeps at most one feed per (profile, startTime).
public struct FeedSession: Codable, Sendable, Hashable, Identifiable {
  /// Stable identity; new with the Core Data mapping.
  public var uuid: UUID
  /// The baby it belongs to; `nil` for an orphan.
  public var profileID: UUID?
  /// When the feed started.
  public var startTime: Date
  /// When the feed ended; `nil` while it is in progress.
  public var endTime: Date?
  /// How much the baby drank, in ``amountUnitSymbol``.
  public var amountValue: Double?
  /// The unit of ``amountValue``, normally a canonical `UnitVolume` symbol ("mL", "fl oz").
  public var amountUnitSymbol: String?
  /// Free text; `#words` in it are the feed's ``hashtags``.
  public var memoText: String?

  /// The identity the store uses: the same as ``uuid``.
  public var id: UUID { uuid }

  /// Creates a feed session.
  public init(
    uuid: UUID = UUID(),
    profileID: UUID?,
    startTime: Date,
    endTime: Date? = nil,
    amountValue: Double? = nil,
    amountUnitSymbol: String? = nil,
    memoText: String? = nil
  ) {
    self.uuid = uuid
    self.profileID = profileID
    self.startTime = startTime
    self.endTime = endTime
    self.amountValue = amountValue
    self.amountUnitSymbol = amountUnitSymbol
    self.memoText = memoText
  }

  /// Whether the feed has started and not yet ended.
  public var isInProgress: Bool { endTime == nil }

  /// The amount as a measurement, or `nil` when there is no value or the unit is not a known one.
  ///
  /// Unit spellings people type ("ml", "oz", "fl. oz") are accepted, as ``VolumeUnit`` reads them.
  public var amount: Measurement<UnitVolume>? {
    guard let amountValue, let unit = VolumeUnit.unit(forSymbol: amountUnitSymbol) else { return nil }
    return Measurement(value: amountValue, unit: unit)
  }

  /// The hashtags in ``memoText``, lowercased, each once, in order of first appearance.
  public var hashtags: [String] { Hashtag.extract(from: memoText ?? "") }

  /// How long the feed lasted, or `nil` while it is in progress.
  public var duration: TimeInterval? { endTime.map { $0.timeIntervalSince(startTime) } }
}
