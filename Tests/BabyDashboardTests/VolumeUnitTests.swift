import BabyDashboard
import Foundation
import Testing

@Suite struct VolumeUnitTests {
  @Test(arguments: [
    ("mL", "mL"), ("ml", "mL"), ("ML", "mL"), ("Ml", "mL"), (" ml ", "mL"), ("milliliters", "mL"),
    ("millilitres", "mL"), ("fl oz", "fl oz"), ("oz", "fl oz"), ("floz", "fl oz"), ("fl. oz", "fl oz"),
    ("fl.oz", "fl oz"), ("FL OZ", "fl oz"), ("fluid ounces", "fl oz"),
  ])
  func commonSpellingsNormaliseToUnitVolumesCanonicalSymbol(typed: String, canonical: String) {
    #expect(VolumeUnit.canonicalSymbol(for: typed) == canonical)
  }

  @Test(arguments: ["", "l", "cup", "tbsp", "m l l", "gallons"])
  func unknownUnitsHaveNoCanonicalSymbol(typed: String) {
    #expect(VolumeUnit.canonicalSymbol(for: typed) == nil)
    #expect(VolumeUnit.unit(forSymbol: typed) == nil)
  }

  @Test func canonicalSymbolsAreUnitVolumesOwn() {
    #expect(VolumeUnit.milliliters.symbol == UnitVolume.milliliters.symbol)
    #expect(VolumeUnit.fluidOunces.symbol == UnitVolume.fluidOunces.symbol)
    #expect(VolumeUnit.unit(forSymbol: "oz") == UnitVolume.fluidOunces)
  }

  @Test func aFeedsAmountIsAMeasurementInItsUnit() {
    let start = Date(timeIntervalSince1970: 1_000)
    let feed = FeedSession(profileID: nil, startTime: start, amountValue: 4, amountUnitSymbol: "oz")
    #expect(feed.amount == Measurement(value: 4, unit: UnitVolume.fluidOunces))
    let ml = FeedSession(profileID: nil, startTime: start, amountValue: 120, amountUnitSymbol: "mL")
    #expect(ml.amount?.converted(to: .milliliters).value == 120)
  }

  @Test func aFeedWithoutValueOrWithAnUnknownUnitHasNoAmount() {
    let start = Date(timeIntervalSince1970: 1_000)
    #expect(FeedSession(profileID: nil, startTime: start, amountUnitSymbol: "mL").amount == nil)
    #expect(FeedSession(profileID: nil, startTime: start, amountValue: 3).amount == nil)
    #expect(FeedSession(profileID: nil, startTime: start, amountValue: 3, amountUnitSymbol: "cup").amount == nil)
  }
}
