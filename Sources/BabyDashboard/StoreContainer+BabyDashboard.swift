import Foundation
import PlainStore

extension StoreContainer {
  /// Opens (or creates) the app's store in an app-group folder: `<folder>/BabyDashboard.store/`.
  ///
  /// ```swift
  /// let folder = try AppGroup.current.resolve(argument: nil, environment: ProcessInfo.processInfo.environment)
  /// let container = try StoreContainer.babyDashboard(inAppGroup: folder, options: .init(author: "cli"))
  /// ```
  /// Unless `options` names them already, the processes that share the app group are named
  /// in the message of a save that times out waiting for the store's lock. A widget or another
  /// extension that only draws opens it with `options.readOnly = true`: it then creates,
  /// writes and locks nothing, and reads the app's commits as they land.
  /// - Throws: `StoreError` if the store is damaged, newer, or cannot be created.
  public static func babyDashboard(inAppGroup directory: URL, options: StoreOptions = .init()) throws -> StoreContainer {
    var options = options
    if options.lockHolderHint == nil { options.lockHolderHint = AppGroup.lockHolders }
    return try .file(at: AppGroup.storeURL(in: directory), schema: BabyDashboardSchema.current, options: options)
  }
}
