import Foundation

/// Runs this executable again with `--rss-probe`, so the peak RSS is that of one
/// open-and-fetch-all, not of the benchmark that built the store.
enum PeakMemoryProbe {
  static func run(store: URL) throws -> Double {
    let process = Process()
    process.executableURL = ChildProcess.currentExecutable
    process.arguments = ["--rss-probe", store.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard process.terminationStatus == 0, let megabytes = Double(text) else { return .nan }
    return megabytes
  }
}
