/// Feed amounts as the previews write them: "120 mL", "4.5 fl oz", "0.25 fl oz".
///
/// At most two decimals, no trailing zeros, "." as the decimal point whatever the locale.
public enum AmountText {
  /// "120 mL"; the unit as stored (canonical symbols are "mL" and "fl oz").
  public static func format(_ value: Double, unitSymbol: String) -> String {
    number(value) + " " + unitSymbol
  }

  /// "120", "4.5", "0.25": rounded to hundredths, digits written by hand.
  public static func number(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-inf" : "inf") }
    let hundredths = (abs(value) * 100).rounded()
    guard hundredths < 9e15 else { return String(value) }
    let total = Int64(hundredths)
    let sign = value < 0 && total != 0 ? "-" : ""
    let whole = total / 100
    let fraction = total % 100
    if fraction == 0 { return sign + String(whole) }
    let digits = fraction < 10 ? "0\(fraction)" : String(fraction)
    return sign + String(whole) + "." + (digits.hasSuffix("0") ? String(digits.dropLast()) : digits)
  }
}
