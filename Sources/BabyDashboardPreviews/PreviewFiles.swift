import BabyDashboardText
import Foundation

/// Recording and checking the `Previews/` folder: what `babydash previews [--check]` and the
/// tests call.
///
/// ```swift
/// let result = try PreviewFiles.check(in: URL(filePath: "Previews"))
/// print(result.report, terminator: "")
/// if !result.isClean { exit(1) }
/// ```
public enum PreviewFiles {
  /// The catalog's renderings in `world`, by relative path, in catalog order.
  ///
  /// - Throws: ``PreviewError`` for a catalog name collision or a preview that cannot render.
  @MainActor
  public static func render(
    _ entries: [PreviewEntry] = PreviewCatalog.entries, world: PreviewWorld = .standard
  ) throws -> [(entry: PreviewEntry, text: String)] {
    try PreviewCatalog.validate(entries)
    return try entries.map { entry in
      do {
        return (entry, try entry.render(in: world))
      } catch let error as PreviewError {
        throw error
      } catch {
        throw PreviewError("preview \(entry.name) could not render: \(error)")
      }
    }
  }

  /// Writes every preview into `directory` (`<Screen>/<scenario>[.<variant>].txt`), only the
  /// files whose bytes change, and removes `.txt` files in the screens' folders that no entry
  /// renders. Everything is rendered before anything is written.
  ///
  /// - Throws: ``PreviewError`` naming the file that could not be written.
  @MainActor @discardableResult
  public static func record(
    into directory: URL, entries: [PreviewEntry] = PreviewCatalog.entries, world: PreviewWorld = .standard
  ) throws -> PreviewRecordResult {
    let rendered = try render(entries, world: world)
    var result = PreviewRecordResult(directory: directory, written: [], unchanged: 0, removed: [], otherFiles: [])
    for (entry, text) in rendered {
      if try write(text, to: directory, relativePath: entry.relativePath) {
        result.written.append(entry.relativePath)
      } else {
        result.unchanged += 1
      }
    }
    let expected = Set(rendered.map(\.entry.relativePath))
    for path in try existingFiles(in: directory) where !expected.contains(path) {
      let screenFolders = Set(PreviewScreen.allCases.map(\.rawValue))
      let folder = path.split(separator: "/").first.map(String.init) ?? ""
      if path.hasSuffix(".txt"), screenFolders.contains(folder), path.split(separator: "/").count == 2 {
        let url = directory.appendingPathComponent(path)
        do {
          try FileManager.default.removeItem(at: url)
        } catch {
          throw PreviewError("cannot remove the orphan preview '\(url.path)': \(error.localizedDescription)")
        }
        result.removed.append(path)
      } else {
        result.otherFiles.append(path)
      }
    }
    return result
  }

  /// Compares every preview with its file in `directory`, byte for byte, writing nothing there.
  ///
  /// Drifted previews get a unified diff; files the catalog does not render are orphans;
  /// renderings with no file are missing. The new renderings of drifted and missing previews
  /// are written under `artifactsDirectory` for review (by default `$SNAPSHOT_ARTIFACTS`, else
  /// `.build/preview-artifacts` beside `directory`).
  ///
  /// - Throws: ``PreviewError`` if a preview cannot render or the artifacts cannot be written.
  @MainActor
  public static func check(
    in directory: URL, entries: [PreviewEntry] = PreviewCatalog.entries, world: PreviewWorld = .standard,
    artifactsDirectory: URL? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> PreviewCheckResult {
    let rendered = try render(entries, world: world)
    let artifacts = artifactsDirectory ?? defaultArtifactsDirectory(for: directory, environment: environment)
    var result = PreviewCheckResult(
      directory: directory, checked: rendered.count, drifted: [], missing: [], orphans: [], recorded: [],
      artifactsDirectory: artifacts)
    var review: [(String, String)] = []
    for (entry, text) in rendered {
      let url = directory.appendingPathComponent(entry.relativePath)
      guard let data = FileManager.default.contents(atPath: url.path) else {
        result.missing.append(entry.relativePath)
        review.append((entry.relativePath, text))
        continue
      }
      if data != Data(text.utf8) {
        let recorded = String(decoding: data, as: UTF8.self)
        let label = (directory.lastPathComponent as NSString).appendingPathComponent(entry.relativePath)
        let diff = LineDiff.unified(
          old: recorded, new: text, oldLabel: label + " (recorded)", newLabel: label + " (rendered now)")
        result.drifted.append(.init(
          name: entry.name, relativePath: entry.relativePath,
          diff: diff.isEmpty ? "(the bytes differ, not the lines: check encoding and line ends)\n" : diff))
        review.append((entry.relativePath, text))
      }
    }
    let expected = Set(rendered.map(\.entry.relativePath))
    result.orphans = try existingFiles(in: directory).filter { !expected.contains($0) }
    // Stale renderings from an earlier check would mislead the review: replace ours.
    for (entry, _) in rendered {
      let stale = artifacts.appendingPathComponent(entry.relativePath)
      if FileManager.default.fileExists(atPath: stale.path) { try? FileManager.default.removeItem(at: stale) }
    }
    for (path, text) in review {
      _ = try write(text, to: artifacts, relativePath: path)
    }
    return result
  }

  /// ``check(in:entries:world:artifactsDirectory:environment:)``, then records as `mode` says
  /// (the tests' entry point): `.missing` writes missing files, `.failed` missing and drifted,
  /// `.all` every file that differs, `.never` nothing. The result still reports what was wrong
  /// before recording, so a test that recorded fails once and passes on the next run.
  @MainActor
  public static func verify(
    in directory: URL, mode: PreviewRecordMode, entries: [PreviewEntry] = PreviewCatalog.entries,
    world: PreviewWorld = .standard, artifactsDirectory: URL? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> PreviewCheckResult {
    var result = try check(
      in: directory, entries: entries, world: world, artifactsDirectory: artifactsDirectory, environment: environment)
    let toRecord: Set<String>
    switch mode {
    case .never: toRecord = []
    case .missing: toRecord = Set(result.missing)
    case .failed, .all: toRecord = Set(result.missing + result.drifted.map(\.relativePath))
    }
    guard !toRecord.isEmpty else { return result }
    for (entry, text) in try render(entries, world: world) where toRecord.contains(entry.relativePath) {
      _ = try write(text, to: directory, relativePath: entry.relativePath)
      result.recorded.append(entry.relativePath)
    }
    return result
  }

  /// `$SNAPSHOT_ARTIFACTS` when set, else `<parent of directory>/.build/preview-artifacts`.
  public static func defaultArtifactsDirectory(for directory: URL, environment: [String: String]) -> URL {
    if let path = environment["SNAPSHOT_ARTIFACTS"], !path.isEmpty {
      return URL(fileURLWithPath: path, isDirectory: true)
    }
    return directory.deletingLastPathComponent()
      .appendingPathComponent(".build", isDirectory: true)
      .appendingPathComponent("preview-artifacts", isDirectory: true)
  }

  // MARK: - Files

  /// Writes `text` if the file's bytes differ; returns whether it wrote.
  static func write(_ text: String, to directory: URL, relativePath: String) throws -> Bool {
    let url = directory.appendingPathComponent(relativePath)
    let data = Data(text.utf8)
    if FileManager.default.contents(atPath: url.path) == data { return false }
    do {
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try data.write(to: url, options: .atomic)
    } catch {
      throw PreviewError("cannot write the preview '\(url.path)': \(error.localizedDescription)")
    }
    return true
  }

  /// Every regular file under `directory` (relative paths, sorted), skipping hidden files and
  /// the temporary files atomic writes leave while they run; none if there is no folder.
  static func existingFiles(in directory: URL) throws -> [String] {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isFolder) else { return [] }
    guard isFolder.boolValue else { throw PreviewError("'\(directory.path)' is a file, not a previews folder") }
    guard let walker = FileManager.default.enumerator(atPath: directory.path) else {
      throw PreviewError("cannot list the previews folder '\(directory.path)'")
    }
    var files: [String] = []
    while let path = walker.nextObject() as? String {
      let last = (path as NSString).lastPathComponent
      if last.hasPrefix(".") {
        if walker.fileAttributes?[.type] as? FileAttributeType == .typeDirectory { walker.skipDescendants() }
        continue
      }
      if walker.fileAttributes?[.type] as? FileAttributeType == .typeRegular { files.append(path) }
    }
    return files.sorted()
  }
}
