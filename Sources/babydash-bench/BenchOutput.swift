import Foundation

/// Writes to standard error through `write(2)`: FileHandle's write traps on a closed pipe or a
/// full disk, where a benchmark should end with the tools' I/O status, 74.
func writeStandardError(_ text: String) {
  let bytes = Array(text.utf8)
  var done = 0
  while done < bytes.count {
    let written = bytes[done...].withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    if written < 0 && errno == EINTR { continue }
    guard written > 0 else { exit(74) }
    done += written
  }
}
