import Foundation

/// Lines for the parent process: each one a single unbuffered `write` of under 4 KB, so it
/// reaches the pipe whole even if the process is killed right after.
enum StressOutput {
  static func line(_ text: String) {
    emit(text + "\n", to: STDOUT_FILENO)
  }

  /// `phase <name>`: the work the process starts now, so that a test that kills it knows
  /// where the kill landed (no phase line: in the process's start-up).
  static func phase(_ name: String) {
    line("phase \(name)")
  }

  /// Many lines in one go (a listing), not one write each.
  static func block(_ text: String) {
    emit(text, to: STDOUT_FILENO)
  }

  static func fail(_ text: String) -> Never {
    emit("plainstore-stress: " + text + "\n", to: STDERR_FILENO)
    exit(1)
  }

  /// One `write` of the whole text (FileHandle's traps on a closed pipe or a full disk); a
  /// parent that stopped reading ends this process with 74, the tools' I/O status.
  private static func emit(_ text: String, to descriptor: Int32) {
    let bytes = Array(text.utf8)
    var done = 0
    while done < bytes.count {
      let written = bytes[done...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { exit(74) }
      done += written
    }
  }
}
