import ArgumentParsing
import BabyDashboard
import BabyDashboardText
import Foundation

/// `babydash history [--baby NAME] [--tag TAG] [--month YYYY-MM]`.
enum HistoryCommand {
  static let command = Command(
    words: ["history"], synopsis: "[--baby NAME] [--tag TAG] [--month YYYY-MM]",
    summary: "Show feeds and diaper changes, newest first, by month and day, each with its short id.",
    options: [
      baby.spec, tag.spec, month.spec,
    ],
    details: "Each row starts with the event's short id: give it to feed edit, feed delete, diaper edit or\ndiaper delete.\n\nExamples:\n  babydash history --baby Mia\n  babydash history --tag night --month 2026-03"
  ) { invocation in
    let session = invocation.session
    let month = try invocation.value(HistoryCommand.month)
    let container = try session.existingStore(nothingTo: "show")
    let model = HistoryModel(container: container, calendar: session.world.calendar, timeZone: session.timeZone)
    if let name = try invocation.value(HistoryCommand.baby) {
      model.babyFilter = try session.baby(name, in: container).id
    }
    if let tag = try invocation.value(HistoryCommand.tag) {
      guard !Hashtag.normalize(tag).isEmpty else {
        throw invocation.usageError("bad value '\(tag)' for --tag: a tag is letters and digits, e.g. night or #night")
      }
      model.hashtagFilter = tag
    }
    try model.reload()
    let text: String
    if let month {
      // The same page, with only the month asked for.
      let babyName = model.babyFilter.flatMap { id in model.babies.first { $0.id == id }?.name }
      text = HistoryText.render(
        months: model.sections.filter { $0.year == month.year && $0.month == month.month },
        filter: HistoryText.Filter(
          babyName: babyName, hashtag: model.hashtagFilter, availableHashtags: model.hashtags, month: [month.year, month.month]),
        world: session.world, showingIDs: true)
    } else {
      text = HistoryText.render(model, world: session.world, showingIDs: true)
    }
    try invocation.output.print(text, terminator: "")
  }

  static let baby = Option<String>("--baby", "NAME", help: "only this baby (a name or an id)")
  static let tag = Option<String>("--tag", "TAG", help: "only feeds whose memo has this #hashtag")
  static let month = Option<MonthArgument>("--month", "YYYY-MM", help: "only this month (in --time-zone)")
}

/// A calendar month as people type it: `2026-03`.
struct MonthArgument: ExpressibleByArgument {
  var year: Int
  var month: Int

  init(argument text: String) throws(ArgumentValueError) {
    let fields = text.split(separator: "-")
    guard fields.count == 2, fields[0].count == 4, fields[1].count == 2, let year = Int(fields[0]),
      let month = Int(fields[1]), (1...12).contains(month)
    else { throw ArgumentValueError(reason: "expected a month like 2026-03") }
    self.year = year
    self.month = month
  }
}
