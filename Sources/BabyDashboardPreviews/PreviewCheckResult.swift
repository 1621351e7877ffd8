import Foundation

/// What comparing the catalog's renderings with a `Previews/` folder found.
public struct PreviewCheckResult: Sendable, Hashable, CustomStringConvertible {
  /// A preview whose file differs from its rendering.
  public struct Drift: Sendable, Hashable {
    /// "Dashboard/two-babies".
    public var name: String
    /// The file, relative to the folder.
    public var relativePath: String
    /// Unified diff from the file to the rendering.
    public var diff: String
  }

  /// The folder checked.
  public var directory: URL
  /// How many previews the catalog rendered.
  public var checked: Int
  public var drifted: [Drift]
  /// Files the catalog renders that are not there (relative paths).
  public var missing: [String]
  /// Files there that no catalog entry renders (relative paths).
  public var orphans: [String]
  /// Files written into the folder by a record mode (relative paths).
  public var recorded: [String]
  /// Where the new renderings of drifted and missing previews were put for review.
  public var artifactsDirectory: URL?

  /// Whether every preview matched and nothing was missing or left over.
  public var isClean: Bool { drifted.isEmpty && missing.isEmpty && orphans.isEmpty }

  /// The report to print: a summary line, a unified diff per drifted preview, the missing and
  /// orphan files, and how to re-record.
  public var report: String {
    let folder = directory.path
    if isClean { return "Previews: \(checked) checked in \(folder): all match.\n" }
    var problems: [String] = []
    if !drifted.isEmpty { problems.append("\(drifted.count) drifted") }
    if !missing.isEmpty { problems.append("\(missing.count) missing") }
    if !orphans.isEmpty { problems.append("\(orphans.count) \(orphans.count == 1 ? "orphan" : "orphans")") }
    var lines = ["Previews: \(checked) checked in \(folder): " + problems.joined(separator: ", ") + "."]
    for drift in drifted {
      lines.append("")
      lines.append("drifted: \(drift.relativePath)")
      lines.append(drift.diff.hasSuffix("\n") ? String(drift.diff.dropLast()) : drift.diff)
    }
    if !missing.isEmpty { lines.append("") }
    for path in missing {
      lines.append("missing: \(path) (the catalog renders it; no file)")
    }
    if !orphans.isEmpty { lines.append("") }
    for path in orphans {
      lines.append("orphan: \(path) (no catalog entry renders it; delete it, or add the entry)")
    }
    lines.append("")
    if !recorded.isEmpty {
      lines.append("Recorded \(recorded.count) into \(folder): \(recorded.joined(separator: ", ")); review and commit them.")
    }
    if let artifactsDirectory, !(drifted.isEmpty && missing.isEmpty) {
      lines.append("New renderings for review: \(artifactsDirectory.path)")
    }
    lines.append("If the changes are intended, re-record: swift run babydash previews")
    return lines.joined(separator: "\n") + "\n"
  }

  public var description: String { report }
}
