import Foundation
import PlainStore

extension StoreContainer {
  /// Opens (or creates) the app's store in an app-group folder: `<folder>/BabyDashboard.store/`.
  ///
  /// ```swift
  /// let folder = try AppGroup.current.resolve(argument: nil, environment: ProcessInfo.processInfo.environment)
  /// let container = try StoreContainer.babyDashboard(inAppGroup: folder, options: .init(author: "cli"))
  /// ```
  /// - Throws: `StoreError` if the store is damaged, newer, or cannot be created.
  public static func babyDashboard(inAppGroup directory: URL, options: StoreOptions = .init()) throws -> StoreContainer {
    try .file(at: AppGroup.storeURL(in: directory), schema: BabyDashboardSchema.current, options: options)
  }
}
