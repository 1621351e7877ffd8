import Foundation
import PlainStore

extension LegacyExport {
  /// The JSON of this document: sorted keys, ISO 8601 dates, one line unless `pretty`.
  public func encoded(pretty: Bool = false) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }

  /// Reads a legacy document: the header first (format name, version), then the records.
  ///
  /// - Parameters:
  ///   - data: the JSON document.
  ///   - source: names the document in errors (a file path).
  /// - Throws: ``LegacyImportError`` with ``LegacyImportError/Code/badData`` naming the record
  ///   and field (`feedSessions[3].startTime`), or ``LegacyImportError/Code/newerVersion(_:)``.
  public static func decode(from data: Data, source: String) throws -> LegacyExport {
    func bad(_ path: String, _ detail: String) -> LegacyImportError {
      LegacyImportError(
        code: .badData, source: source, path: path,
        detail: detail + " — nothing was imported; fix the record or export again.")
    }
    let header: Header
    do {
      header = try JSONDecoder().decode(Header.self, from: data)
    } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
      throw bad("", "not a legacy export: the document is not a JSON object")
    } catch let error as DecodingError {
      throw translate(error, source: source, notJSON: "not a legacy export: not JSON")
    }
    guard header.format == formatName else {
      throw LegacyImportError(
        code: .badData, source: source, path: "format",
        detail: "\(header.format?.debugDescription ?? "no format name") is not a legacy export; expected \"\(formatName)\" — "
          + "export the SwiftData store again with the app's export")
    }
    guard let version = header.version, version >= 1 else {
      throw bad("version", "\(header.version.map(String.init) ?? "no version") is not a format version; expected \(currentVersion)")
    }
    guard version <= currentVersion else {
      throw LegacyImportError(
        code: .newerVersion(version), source: source, path: "version",
        detail: "this babydash reads format version \(currentVersion) and older — update babydash to import it; nothing was imported.")
    }
    do {
      return try JSONDecoder().decode(LegacyExport.self, from: data)
    } catch let error as DecodingError {
      throw translate(error, source: source, notJSON: "not JSON")
    }
  }

  /// Only what tells which type to decode: the format name and version.
  private struct Header: Decodable {
    var format: String?
    var version: Int?
  }

  private static func translate(_ error: DecodingError, source: String, notJSON: String) -> LegacyImportError {
    let failure = DecodingFailure(error)
    return LegacyImportError(
      code: .badData, source: source, path: failure.path,
      detail: (failure.isUnreadable ? notJSON : failure.detail) + " — nothing was imported; fix the record or export again.")
  }
}
