import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where `babydash` writes: results for people on stdout, errors and progress on stderr.
///
/// Every write can fail, and says so by throwing ``OutputError``: a full disk behind `>` or a
/// pipe whose reader has gone (`babydash history | head -1`) ends the command with exit 74
/// instead of a crash (`FileHandle.write(_:)` traps on a failed write).
struct Output {
  func print(_ text: String, terminator: String = "\n") throws(OutputError) {
    try send(Self.visible(text) + terminator, to: STDOUT_FILENO)
  }

  func error(_ text: String) throws(OutputError) {
    try send(Self.visible(text) + "\n", to: STDERR_FILENO)
  }

  /// `text` with every control character but a line break and a tab shown as `\u{1B}`: a name
  /// typed, synced from another device or found in a file name never colours, clears or rings
  /// the terminal.
  static func visible(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isHidden) else { return text }
    var shown = ""
    for scalar in text.unicodeScalars {
      if isHidden(scalar) { shown += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" } else { shown.unicodeScalars.append(scalar) }
    }
    return shown
  }

  private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
    (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
  }

  /// Progress of long work: shown only when stderr is a terminal, so logs and pipes stay clean.
  var showsProgress: Bool { isatty(STDERR_FILENO) == 1 }

  /// Shows `text` as the progress line. A line the terminal refuses is dropped: progress is not
  /// the command's result, and the result's own write reports a broken output.
  func progress(_ text: String) {
    guard showsProgress else { return }
    do { try send("\r\u{1B}[K" + text, to: STDERR_FILENO) } catch {}
  }

  func endProgress() {
    guard showsProgress else { return }
    do { try send("\r\u{1B}[K", to: STDERR_FILENO) } catch {}
  }

  /// Writes all of `text` to `descriptor`, through short writes and interruptions.
  private func send(_ text: String, to descriptor: Int32) throws(OutputError) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { buffer in write(descriptor, buffer.baseAddress, buffer.count) }
      if written < 0 {
        let code = errno
        if code == EINTR { continue }
        throw OutputError(descriptor: descriptor, code: code)
      }
      bytes = bytes.dropFirst(written)
    }
  }
}

/// A write to standard output or error that the system refused.
struct OutputError: Error, CustomStringConvertible {
  /// `STDOUT_FILENO` or `STDERR_FILENO`.
  var descriptor: Int32
  /// The `errno` of the failed write.
  var code: Int32

  /// The reader of a pipe went away (`| head -1`): it chose to stop reading, nothing to report.
  var isClosedPipe: Bool { code == EPIPE }

  var description: String {
    let stream = descriptor == STDOUT_FILENO ? "standard output" : "standard error"
    return "cannot write to \(stream): \(String(cString: strerror(code))) (the output is incomplete; "
      + "if it goes to a file, free some space or choose another place)"
  }
}
