import Foundation

/// What keeps an app running while it holds the store's lock (``StoreOptions/backgroundAssertion``).
///
/// iOS kills an app that is suspended while it holds a lock on a file in a shared container
/// (exception code 0xdead10cc), which is where an app and its widget keep their store. So the
/// store takes its lock only inside an assertion: it begins one just before it asks for the lock
/// and ends it just after letting the lock go. A commit holds the lock for milliseconds.
///
/// ```swift
/// // An app that manages its own background tasks injects them:
/// options.backgroundAssertion = BackgroundAssertion { reason in
///   let task = MyBackgroundTasks.begin(reason)
///   return { MyBackgroundTasks.end(task) }
/// }
/// ```
public struct BackgroundAssertion: Sendable {
  private let begin: @Sendable (_ reason: String) -> @Sendable () -> Void

  /// - Parameter begin: begins an assertion named `reason` and returns what ends it; the store
  ///   calls it on the thread that takes the lock, and the function it returns once the lock is
  ///   let go, on the same thread.
  public init(begin: @escaping @Sendable (_ reason: String) -> @Sendable () -> Void) {
    self.begin = begin
  }

  /// No assertion: for macOS, Linux, and processes the system never suspends (tools, tests).
  public static let none = BackgroundAssertion { _ in {} }

  /// The platform's: on iOS, iPadOS, watchOS, tvOS and visionOS an expiring activity
  /// (`ProcessInfo.performExpiringActivity(withReason:using:)`), elsewhere ``none``.
  public static var system: BackgroundAssertion {
    #if os(iOS) || os(watchOS) || os(tvOS) || os(visionOS)
      expiringActivity
    #else
      none
    #endif
  }

  /// Runs `body` inside an assertion named `reason`.
  func hold<T>(_ reason: String, _ body: () throws -> T) rethrows -> T {
    let end = begin(reason)
    defer { end() }
    return try body()
  }
}
