/// The app's screens that have text previews; the raw value names their folder in `Previews/`.
public enum PreviewScreen: String, Sendable, Hashable, CaseIterable, Comparable {
  /// ContentView: one tile per baby.
  case dashboard = "Dashboard"
  /// HistoryView: feeds and diapers by month and day.
  case history = "History"
  /// HistoryEditView: the edit form of one feed or diaper change.
  case historyEdit = "HistoryEdit"
  /// The widget, small and medium.
  case widget = "Widget"

  public static func < (lhs: PreviewScreen, rhs: PreviewScreen) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}
