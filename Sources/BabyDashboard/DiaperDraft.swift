import Foundation

/// The edit form of a diaper change (HistoryEditView): its time and type.
public struct DiaperDraft: Sendable, Hashable {
  public var timestamp: Date
  public var type: DiaperType

  public init(timestamp: Date, type: DiaperType) {
    self.timestamp = timestamp
    self.type = type
  }

  /// The form showing a stored diaper change.
  public init(_ diaper: DiaperChange) {
    self.init(timestamp: diaper.timestamp, type: diaper.type)
  }

  /// `diaper` with the form's values.
  public func applied(to diaper: DiaperChange) -> DiaperChange {
    var diaper = diaper
    diaper.timestamp = timestamp
    diaper.type = type
    return diaper
  }
}
