import Foundation

/// Reads a legacy JSON export (``LegacyExport``) from a file or from bytes.
///
/// ```swift
/// let reader = LegacyJSONExportReader(fileURL: URL(fileURLWithPath: "legacy.json"))
/// let report = try importer.run(reader)
/// ```
public struct LegacyJSONExportReader: LegacyStoreReader {
  private enum Input: Sendable {
    case file(URL)
    case bytes(Data)
  }

  private let input: Input
  public let source: String

  /// A reader of the file at `fileURL`, named `source` in messages (its path by default).
  public init(fileURL: URL, source: String? = nil) {
    self.input = .file(fileURL)
    self.source = source ?? fileURL.path
  }

  /// A reader of a document already in memory, named `source` in messages.
  public init(data: Data, source: String) {
    self.input = .bytes(data)
    self.source = source
  }

  public func read() throws -> LegacyExport {
    switch input {
    case .bytes(let data):
      return try LegacyExport.decode(from: data, source: source)
    case .file(let url):
      return try LegacyExport.decode(from: try contents(of: url), source: source)
    }
  }

  private func contents(of url: URL) throws -> Data {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      throw LegacyImportError(code: .unreadable, source: source, detail: "no such file — check the path.")
    }
    guard !isDirectory.boolValue else {
      throw LegacyImportError(code: .unreadable, source: source, detail: "is a folder; expected a legacy export file.")
    }
    do {
      return try Data(contentsOf: url)
    } catch {
      throw LegacyImportError(
        code: .unreadable, source: source,
        detail: "the file cannot be read (\(error.localizedDescription)) — check its permissions.")
    }
  }
}
