import Foundation
import PlainStore

extension BabyProfile {
  /// When the feed after one that started at `start` is due: `start + feedTerm`, or nil when
  /// that is no date the app can show or store (a feed term of 1e19 seconds from an old store
  /// or a script, a start in the year 9999).
  ///
  /// The one place the due time is computed: the dashboard and the widget both call it, so a
  /// bad feed term can neither crash them nor write a widget file its reader refuses.
  public func nextFeedDue(afterFeedStartingAt start: Date) -> Date? {
    guard feedTerm.isFinite else { return nil }
    let due = start.addingTimeInterval(feedTerm)
    return ISO8601.isStorable(due) ? due : nil
  }
}
