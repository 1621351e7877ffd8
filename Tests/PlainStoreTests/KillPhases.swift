import Foundation
import Testing

/// Where the kills of a kill suite landed, by the phase its child (plainstore-stress) last
/// reported: `start-up` when it had printed nothing (the kill hit the process's start, not the
/// work), the name of its last `phase <name>` line, `committing` once a writer is `ready`, and
/// `finished` when the work ended before the kill.
struct KillPhases: Sendable, CustomStringConvertible {
  private(set) var counts: [String: Int] = [:]

  /// The phase a child ended in, from its output.
  static func phase(of child: MultiProcessChild, killed: Bool) -> String {
    guard killed else { return "finished" }
    var phase = "start-up"
    for line in child.lines {
      if line.hasPrefix("phase ") { phase = String(line.dropFirst("phase ".count)) }
      if line.hasPrefix("ready") { phase = "committing" }
      if line.hasPrefix("opened") || line.hasPrefix("compacted") { phase = "after the work" }
    }
    return phase
  }

  /// Counts the child's end; returns its phase.
  @discardableResult
  mutating func record(_ child: MultiProcessChild, killed: Bool) -> String {
    let phase = Self.phase(of: child, killed: killed)
    counts[phase, default: 0] += 1
    return phase
  }

  subscript(phase: String) -> Int { counts[phase, default: 0] }

  /// Every phase in `floors` was killed at least its floor of times.
  func shortfalls(_ floors: [String: Int]) -> [String] {
    floors.sorted { $0.key < $1.key }.compactMap { phase, floor in
      self[phase] >= floor ? nil : "\(self[phase]) kills in phase '\(phase)', at least \(floor) wanted"
    }
  }

  var description: String {
    counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
  }
}
