import BabyDashboard
import Foundation

/// The edit form (HistoryEditView) as text: the fields of a feed (start, end, amount, unit,
/// memo and its hashtags) or of a diaper change (time, type), then what stops a save.
///
/// ```swift
/// let edit = try HistoryEditModel(editing: event, container: container, cache: cache)
/// print(HistoryEditText.render(edit, world: world), terminator: "")
/// ```
public enum HistoryEditText {
  /// The text width the form is laid out in.
  public static let width = 72

  /// The form for `draft` with its validation `issues`, ending in one newline.
  ///
  /// - Parameter babyName: for the title; `nil` for an orphan.
  public static func render(
    draft: HistoryEditModel.Draft, babyName: String?, issues: [ValidationIssue], world: PreviewWorld
  ) -> String {
    var lines: [String] = []
    func field(_ label: String, _ value: String) {
      lines += TextLayout.wrap(value, columns: width, first: TextLayout.pad(label, to: 11), rest: String(repeating: " ", count: 11))
    }
    let who = HistoryText.displayName(babyName)
    switch draft {
    case .feed(let form):
      lines += TextLayout.wrap("Edit feed · \(who)", columns: width, rest: "  ")
      lines.append(TextLayout.rule("=", width))
      field("Start", TimeText.dateTime(form.startTime, in: world))
      if let end = form.endTime {
        let length = end >= form.startTime ? " (\(TimeText.duration(end.timeIntervalSince(form.startTime))))" : ""
        field("End", TimeText.dateTime(end, in: world) + length)
      } else {
        field("End", "— still in progress (\(TimeText.duration(world.now.timeIntervalSince(form.startTime))) so far)")
      }
      field("Amount", form.amountText.isEmpty ? "—" : form.amountText)
      let units = VolumeUnit.allCases.map(\.symbol).joined(separator: " | ")
      field("Unit", "\(form.unitSymbol.isEmpty ? "—" : form.unitSymbol)   (\(units))")
      field("Memo", form.memoText.isEmpty ? "—" : TextLayout.singleLine(form.memoText))
      let tags = Hashtag.extract(from: form.memoText)
      field("Hashtags", tags.isEmpty ? "—" : tags.map { "#" + $0 }.joined(separator: " "))
    case .diaper(let form):
      lines += TextLayout.wrap("Edit diaper change · \(who)", columns: width, rest: "  ")
      lines.append(TextLayout.rule("=", width))
      field("Time", TimeText.dateTime(form.timestamp, in: world))
      field("Type", DiaperType.allCases.map { ($0 == form.type ? "(x) " : "( ) ") + $0.rawValue }.joined(separator: "   "))
    }
    lines.append(TextLayout.rule("-", width))
    if issues.isEmpty {
      lines.append("Ready to save.   [Save]  [Delete]")
    } else {
      lines.append("Cannot save, \(issues.count) \(issues.count == 1 ? "problem" : "problems"):")
      for issue in issues {
        lines += TextLayout.wrap(issue.message, columns: width, first: "  ! ", rest: "    ")
      }
    }
    return TextLayout.document(lines)
  }

  /// The form a ``HistoryEditModel`` holds now, with its issues.
  @MainActor
  public static func render(_ model: HistoryEditModel, world: PreviewWorld) -> String {
    render(draft: model.draft, babyName: model.babyName, issues: model.issues, world: world)
  }
}
