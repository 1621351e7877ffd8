import Foundation

/// The amount of a baby's last feed, as ``LastFeedAmountCache`` keeps it.
///
/// Stored as the small JSON object <doc:DataModel> names: `{"amountUnitSymbol":"mL","amountValue":120}`.
public struct LastFeedAmount: Codable, Sendable, Hashable {
  /// How much.
  public var amountValue: Double
  /// In which unit, normally a canonical `UnitVolume` symbol ("mL", "fl oz").
  public var amountUnitSymbol: String

  /// Creates a value; a known unit spelling is normalised to its canonical symbol.
  public init(amountValue: Double, amountUnitSymbol: String) {
    self.amountValue = amountValue
    self.amountUnitSymbol = VolumeUnit.canonicalSymbol(for: amountUnitSymbol) ?? amountUnitSymbol
  }

  /// The amount of a feed, or `nil` if it has no value or no unit.
  public init?(feed: FeedSession) {
    guard let value = feed.amountValue, let unit = feed.amountUnitSymbol, !unit.isEmpty else { return nil }
    self.init(amountValue: value, amountUnitSymbol: unit)
  }

  /// The amount as a measurement, or `nil` if the unit is not a known one.
  public var measurement: Measurement<UnitVolume>? {
    VolumeUnit.unit(forSymbol: amountUnitSymbol).map { Measurement(value: amountValue, unit: $0) }
  }
}
