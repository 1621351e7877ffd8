import Foundation

/// `plainstore-stress <mode> <store folder> [--option value]…`, parsed strictly: an unknown
/// option or a value that is not a number is an error that names it.
struct StressArguments {
  var mode: String
  var store: URL
  private var options: [String: String]

  init(_ arguments: [String]) throws(StressUsageError) {
    guard arguments.count >= 2 else { throw StressUsageError("expected a mode and a store folder") }
    mode = arguments[0]
    store = URL(fileURLWithPath: arguments[1], isDirectory: true)
    options = [:]
    var rest = arguments.dropFirst(2)
    while let name = rest.popFirst() {
      guard name.hasPrefix("--"), let value = rest.popFirst() else {
        throw StressUsageError("option '\(name)' needs the form --name value")
      }
      options[String(name.dropFirst(2))] = value
    }
  }

  func string(_ name: String, default fallback: String) -> String { options[name] ?? fallback }

  func int(_ name: String, default fallback: Int) throws(StressUsageError) -> Int {
    guard let text = options[name] else { return fallback }
    guard let value = Int(text) else { throw StressUsageError("--\(name) wants a whole number, not '\(text)'") }
    return value
  }

  /// Options the mode did not read are mistakes.
  func rejectUnknown(_ known: Set<String>) throws(StressUsageError) {
    if let unknown = options.keys.sorted().first(where: { !known.contains($0) }) {
      throw StressUsageError("unknown option --\(unknown) for mode '\(mode)'")
    }
  }
}

struct StressUsageError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }

  static let usage = """
    usage: plainstore-stress write <store> [--writer W] [--commits M (0: until killed)] [--parts P]
                                           [--threshold T] [--retention R] [--expect-total N]
           plainstore-stress bench <store> [--writers N] [--commits M]
           plainstore-stress reader <store> --name R [--consume-through S]
           plainstore-stress open <store> [--schema 1|2]   (migrates, merges or rebuilds as opening does)
           plainstore-stress compact <store>               (a snapshot, then this device's acknowledged change files go)
    """
}
