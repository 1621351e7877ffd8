import Foundation
import Testing

/// What a test does when this machine cannot run it (no C compiler, no Syncthing, root whom
/// mode 000 does not stop): on CI (`CI=true`) it fails, so that CI runs every case or says which
/// it could not; elsewhere it prints "skipped" with the reason and what to do.
enum CannotRun {
  static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

  /// Records why `test` could not run: an issue on CI, a printed line elsewhere.
  static func report(_ test: String, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
    if isCI {
      Issue.record("\(test) cannot run on CI: \(reason)", sourceLocation: sourceLocation)
    } else {
      print("\(test): skipped: \(reason)")
    }
  }
}
