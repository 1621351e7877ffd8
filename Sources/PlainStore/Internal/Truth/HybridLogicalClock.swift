import Foundation

/// A hybrid logical clock (Kulkarni et al., 2014): wall-clock milliseconds in the high 48 bits
/// and a counter in the low 16, so stamps follow real time when clocks agree and still grow
/// when a device's clock goes backwards or a change arrives from a device whose clock is ahead.
///
/// Every change a device writes gets the next stamp; every change it merges moves the clock past
/// that change's stamp, so a later local edit always wins over what the device has already seen.
struct HybridLogicalClock: Sendable, Equatable {
  /// The last stamp handed out or observed.
  private(set) var last: UInt64

  init(last: UInt64 = 0) { self.last = last }

  /// The stamp for a new local change at wall time `now`.
  mutating func tick(now: Date) -> UInt64 {
    let wall = Self.wallBits(now)
    last = wall > last ? wall : last &+ 1
    return last
  }

  /// The stamp for a new local write at wall time `now` that comes after `seen`: a snapshot,
  /// after every change it holds.
  mutating func tick(now: Date, after seen: UInt64) -> UInt64 {
    observe(seen)
    return tick(now: now)
  }

  /// Moves the clock past a stamp seen in a merged change. A stamp no clock writes is damage
  /// (the files that carry one are refused) and never moves it: from there the clock would wrap.
  mutating func observe(_ stamp: UInt64) {
    if stamp > last && Self.isWritable(stamp) { last = stamp }
  }

  /// The last stamp a clock writes: the last millisecond of the year 9999, its counter full.
  /// Past it, a clock that followed would run out of bits and wrap to 0, and every later local
  /// edit would lose to what it had seen.
  static let latest: UInt64 = (253_402_300_799_999 << 16) | 0xffff

  /// Whether a clock can have written `stamp`.
  static func isWritable(_ stamp: UInt64) -> Bool { stamp <= latest }

  /// The wall-clock part of `date`, counter zero. Dates before 1970 count as 1970.
  static func wallBits(_ date: Date) -> UInt64 {
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
    guard milliseconds.isFinite, milliseconds > 0 else { return 0 }
    return UInt64(min(milliseconds, Double(1 << 47))) << 16
  }

  /// The wall time a stamp carries.
  static func date(of stamp: UInt64) -> Date {
    Date(timeIntervalSince1970: Double(stamp >> 16) / 1000)
  }

  /// Sixteen lowercase hex digits: sorts as the number does.
  static func text(_ stamp: UInt64) -> String { Digits.hex16(stamp) }

  static func parse<S: StringProtocol>(_ text: S) -> UInt64? { Digits.hex16Value(text.utf8) }
}
