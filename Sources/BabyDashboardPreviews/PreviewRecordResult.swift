import Foundation

/// What recording the previews into a folder did.
public struct PreviewRecordResult: Sendable, Hashable, CustomStringConvertible {
  public var directory: URL
  /// Files written because they were new or different (relative paths).
  public var written: [String]
  /// How many files already held their rendering and were left alone.
  public var unchanged: Int
  /// Orphan `.txt` files removed from the screens' folders.
  public var removed: [String]
  /// Other files in the folder no entry renders; left alone (relative paths).
  public var otherFiles: [String]

  public var report: String {
    var lines = [
      "Previews: \(written.count) written, \(unchanged) unchanged, \(removed.count) removed in \(directory.path)."
    ]
    lines += written.map { "written: \($0)" }
    lines += removed.map { "removed: \($0) (no catalog entry renders it)" }
    lines += otherFiles.map { "left alone: \($0) (not a preview file)" }
    return lines.joined(separator: "\n") + "\n"
  }

  public var description: String { report }
}
