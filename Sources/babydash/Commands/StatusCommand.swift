import BabyDashboard
import BabyDashboardText

/// `babydash status`: the dashboard, as its preview renders it.
enum StatusCommand {
  static let command = Command(
    words: ["status"], synopsis: "",
    summary: "Show the dashboard: each baby's feed in progress, last feed, next feed due, last diaper.",
    details: "Examples:\n  babydash status\n  babydash --time-zone Europe/Paris status"
  ) { invocation in
    let session = invocation.session
    let model = DashboardModel(
      container: try session.existingStore(nothingTo: "show"), cache: session.cache, flags: try session.flags(), now: { session.now })
    try model.reload()
    try invocation.output.print(
      DashboardText.render(tiles: model.tiles, world: session.world, cacheWarning: model.cacheWarning), terminator: "")
  }
}

extension Session {
  /// The world the text renderers show: this session's now and zone.
  var world: PreviewWorld { PreviewWorld(now: now, timeZone: timeZone) }
}
