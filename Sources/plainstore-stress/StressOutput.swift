import Foundation

/// Lines for the parent process: each one a single unbuffered `write` of under 4 KB, so it
/// reaches the pipe whole even if the process is killed right after.
enum StressOutput {
  static func line(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }

  /// `phase <name>`: the work the process starts now, so that a test that kills it knows
  /// where the kill landed (no phase line: in the process's start-up).
  static func phase(_ name: String) {
    line("phase \(name)")
  }

  static func fail(_ text: String) -> Never {
    FileHandle.standardError.write(Data(("plainstore-stress: " + text + "\n").utf8))
    exit(1)
  }
}
