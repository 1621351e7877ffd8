import BabyDashboardFixtures
import BabyDashboardText

/// One preview: a (screen, scenario, variant) triple, its stable name and file, and how to
/// render it in a world.
public struct PreviewEntry: Sendable, Identifiable, CustomStringConvertible {
  public let screen: PreviewScreen
  public let scenario: Scenario
  /// What distinguishes previews of one screen and scenario ("mia", "invalid", "small"); `nil`
  /// for the plain one.
  public let variant: String?
  /// One line on what the preview shows.
  public let summary: String
  private let renderer: @MainActor @Sendable (PreviewWorld) throws -> String

  public init(
    screen: PreviewScreen, scenario: Scenario, variant: String? = nil, summary: String,
    render: @escaping @MainActor @Sendable (PreviewWorld) throws -> String
  ) {
    self.screen = screen
    self.scenario = scenario
    self.variant = variant
    self.summary = summary
    self.renderer = render
  }

  /// "Dashboard/two-babies", "History/history.mia": unique in the catalog.
  public var name: String {
    screen.rawValue + "/" + scenario.name + (variant.map { "." + $0 } ?? "")
  }

  /// The file inside `Previews/`: `<Screen>/<scenario>[.<variant>].txt`.
  public var relativePath: String { name + ".txt" }

  public var id: String { name }
  public var description: String { name }

  /// The preview's text in `world`: UTF-8, "\n" line ends, one trailing newline.
  ///
  /// - Throws: `StoreError` or ``PreviewError`` if its scenario cannot be seeded or lacks what
  ///   the preview shows.
  @MainActor
  public func render(in world: PreviewWorld = .standard) throws -> String {
    try renderer(world)
  }
}
