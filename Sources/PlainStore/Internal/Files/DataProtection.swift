import Foundation
import Synchronization

/// The data-protection class of every file and folder the store creates: on iOS and its
/// siblings, `completeUntilFirstUserAuthentication`, so that a widget or an extension reads the
/// store while the phone is locked, once it has been unlocked after starting. (An app whose
/// default class is `complete` would leave the widget unable to read anything while locked.)
/// Elsewhere, nothing.
///
/// ``FileSystem/createFile(atPath:flags:)``, ``FileSystem/openOrCreateFile(atPath:flags:)`` and
/// ``FileSystem/makeFolder(_:displayPath:)`` are the only places the store creates anything, and
/// each newly created item goes through ``apply(toItemAtPath:)``.
enum DataProtection {
  /// Gives a newly created file or folder the store's class.
  static func apply(toItemAtPath path: String) {
    #if os(iOS) || os(watchOS) || os(tvOS) || os(visionOS)
      protectUntilFirstUserAuthentication(path)
    #endif
    guard hasObservers.load(ordering: .relaxed) else { return }
    for observer in observers.withLock({ Array($0.values) }) { observer(path) }
  }

  // MARK: For tests: what the store created

  private static let observers = Mutex<[UUID: @Sendable (String) -> Void]>([:])
  private static let hasObservers = Atomic<Bool>(false)

  /// Calls `observer` with the path of every item created from now on, by any store of this
  /// process, until the returned function is called.
  static func observe(_ observer: @escaping @Sendable (String) -> Void) -> @Sendable () -> Void {
    let id = UUID()
    observers.withLock {
      $0[id] = observer
      hasObservers.store(true, ordering: .relaxed)
    }
    return {
      observers.withLock {
        $0[id] = nil
        hasObservers.store(!$0.isEmpty, ordering: .relaxed)
      }
    }
  }
}
