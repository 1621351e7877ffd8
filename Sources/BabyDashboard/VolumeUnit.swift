import Foundation

/// The volume units a feed's amount can be in, and how typed spellings map to them.
///
/// The store keeps `UnitVolume`'s canonical symbols: "mL" and "fl oz". People type other
/// spellings ("ml", "ML", "oz", "floz", "fl. oz"); ``canonicalSymbol(for:)`` maps those, and
/// returns `nil` for anything it does not know, so that an edit form can say so.
public enum VolumeUnit: String, Sendable, Hashable, CaseIterable {
  /// Millilitres, "mL".
  case milliliters = "mL"
  /// US fluid ounces, "fl oz" (an "oz" of milk is a fluid ounce).
  case fluidOunces = "fl oz"

  /// The canonical symbol, as `UnitVolume` spells it.
  public var symbol: String { rawValue }

  /// The Foundation unit.
  public var unitVolume: UnitVolume {
    switch self {
    case .milliliters: return .milliliters
    case .fluidOunces: return .fluidOunces
    }
  }

  /// The unit a typed symbol names, or `nil` if it names none this app knows.
  ///
  /// Case, spaces and dots do not matter: "ml", "ML", "m l", "oz", "floz", "fl. oz" and
  /// "Fl Oz" are all accepted, and so are the spelled-out names ("milliliters", "millilitres",
  /// "fluid ounces", "ounces").
  public init?(symbol: String) {
    let key = symbol.lowercased().filter { !$0.isWhitespace && $0 != "." }
    switch key {
    case "ml", "milliliter", "milliliters", "millilitre", "millilitres":
      self = .milliliters
    case "floz", "oz", "ounce", "ounces", "fluidounce", "fluidounces":
      self = .fluidOunces
    default:
      return nil
    }
  }

  /// The canonical symbol for a typed one ("ml" → "mL", "oz" → "fl oz"), or `nil` if unknown.
  public static func canonicalSymbol(for symbol: String) -> String? {
    VolumeUnit(symbol: symbol)?.symbol
  }

  /// The `UnitVolume` for a typed symbol, or `nil` if it is missing or unknown.
  public static func unit(forSymbol symbol: String?) -> UnitVolume? {
    symbol.flatMap(VolumeUnit.init(symbol:))?.unitVolume
  }
}
