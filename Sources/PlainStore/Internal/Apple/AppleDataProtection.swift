#if os(iOS) || os(watchOS) || os(tvOS) || os(visionOS)
  import Foundation

  extension DataProtection {
    /// Sets the class on one item. A volume that has no classes keeps its default: nothing to
    /// do about it here, and the item is whole either way.
    static func protectUntilFirstUserAuthentication(_ path: String) {
      try? FileManager.default.setAttributes([.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: path)
    }
  }
#endif
