import BabyDashboard
import Foundation

/// Events dated ahead of this device's clock (``EventsAhead``), in a parent's words, each with
/// its id and the commands that fix it: what `check`, `sync status` and `feed start` say.
public enum EventsAheadText {
  /// One line per event, earliest first. `babies` names the babies by id.
  public static func lines(_ ahead: EventsAhead, babies: [UUID: String], now: Date, in zone: TimeZone) -> [String] {
    func owner(_ id: UUID?) -> String { id.flatMap { babies[$0] }.map { "\($0)'s" } ?? "An orphan" }
    let feeds = ahead.feeds.map { feed in
      let id = HistoryText.shortID(feed.uuid)
      return "\(owner(feed.profileID)) feed of \(TimeText.typable(feed.startTime, now: now, in: zone)) (\(id)) is dated ahead of this device's clock: "
        + "the clock of the device that logged it may be wrong; fix it with `babydash feed edit \(id) --start TIME --end TIME` "
        + "or `babydash feed delete \(id)`"
    }
    let diapers = ahead.diapers.map { diaper in
      let id = HistoryText.shortID(diaper.uuid)
      return "\(owner(diaper.profileID)) diaper change of \(TimeText.typable(diaper.timestamp, now: now, in: zone)) (\(id)) is dated ahead of this device's clock: "
        + "the clock of the device that logged it may be wrong; fix it with `babydash diaper edit \(id) --at TIME` "
        + "or `babydash diaper delete \(id)`"
    }
    return feeds + diapers
  }
}
