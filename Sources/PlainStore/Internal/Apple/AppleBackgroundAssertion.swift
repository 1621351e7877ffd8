#if os(iOS) || os(watchOS) || os(tvOS) || os(visionOS)
  import Foundation

  extension BackgroundAssertion {
    /// An expiring activity held from `begin` until its end is called: the activity's block
    /// runs on a queue of the system's and waits there for the end. Told that the app is about to
    /// be suspended (`expired`), it lets the caller go on: the lock is held for milliseconds, and
    /// the commit it orders must finish rather than be torn.
    static let expiringActivity = BackgroundAssertion { reason in
      let started = DispatchSemaphore(value: 0)
      let ended = DispatchSemaphore(value: 0)
      ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { expired in
        started.signal()
        if !expired { ended.wait() }
      }
      started.wait()
      return { ended.signal() }
    }
  }
#endif
