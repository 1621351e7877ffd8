import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where `babydash` writes: results for people on stdout, errors and progress on stderr.
struct Output {
  func print(_ text: String, terminator: String = "\n") {
    write(text + terminator, to: FileHandle.standardOutput)
  }

  func error(_ text: String) {
    write(text + "\n", to: FileHandle.standardError)
  }

  /// Progress of long work: shown only when stderr is a terminal, so logs and pipes stay clean.
  var showsProgress: Bool { isatty(STDERR_FILENO) == 1 }

  func progress(_ text: String) {
    guard showsProgress else { return }
    write("\r\u{1B}[K" + text, to: FileHandle.standardError)
  }

  func endProgress() {
    guard showsProgress else { return }
    write("\r\u{1B}[K", to: FileHandle.standardError)
  }

  private func write(_ text: String, to handle: FileHandle) {
    handle.write(Data(text.utf8))
  }
}
