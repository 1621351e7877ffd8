import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where `babydash` writes: results for people on stdout, errors and progress on stderr.
struct Output {
  func print(_ text: String, terminator: String = "\n") {
    write(Self.visible(text) + terminator, to: FileHandle.standardOutput)
  }

  func error(_ text: String) {
    write(Self.visible(text) + "\n", to: FileHandle.standardError)
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
