import Foundation
import PlainStore

/// The widget's cache: one JSON file in the app group with a snapshot per baby.
///
/// The app writes it (``refreshBabyWidgetSnapshots(using:now:timeZone:to:)``) on a remote change,
/// at launch and when entering the foreground (``BabyWidgetSnapshotObserver`` does all three for
/// the app); the widget reads it with ``read(from:)`` without opening the store. The file is JSON with sorted keys, dates as ISO 8601 strings
/// (`PlainStore.ISO8601`), a format version first, replaced atomically.
public struct BabyWidgetSnapshots: Codable, Sendable, Hashable {
  /// The version of the file format this code writes.
  public static let currentFormatVersion = 1

  public var formatVersion: Int
  /// When the snapshots were computed.
  public var generatedAt: Date
  /// The identifier of the time zone "today" was counted in.
  public var timeZone: String
  /// One snapshot per baby, oldest baby first (createdAt ascending).
  public var babies: [BabyWidgetSnapshot]

  public init(generatedAt: Date, timeZone: String, babies: [BabyWidgetSnapshot]) {
    self.formatVersion = Self.currentFormatVersion
    self.generatedAt = generatedAt
    self.timeZone = timeZone
    self.babies = babies
  }

  /// The snapshot of the oldest baby with this name (a widget is configured by name).
  public func snapshot(forBabyName name: String) -> BabyWidgetSnapshot? {
    babies.first { $0.name == name }
  }

  // MARK: - The file

  /// The file's bytes: sorted keys, ISO 8601 dates, a trailing newline.
  public func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      // The reader refuses a date outside the four-digit years: never write one.
      guard ISO8601.isStorable(date) else {
        throw EncodingError.invalidValue(
          ISO8601.describe(date),
          .init(
            codingPath: encoder.codingPath,
            debugDescription: "\(ISO8601.describe(date)) is outside the dates the widget reads: \(ISO8601.storableRangeText)"))
      }
      var container = encoder.singleValueContainer()
      try container.encode(ISO8601.format(date))
    }
    var data = try encoder.encode(self)
    data.append(0x0A)
    return data
  }

  /// Replaces the file at `url` atomically (temporary file, fsync, rename, fsync of the folder).
  ///
  /// - Throws: ``KeyValueStoreError`` (`.io`) naming the file and the system's reason if it
  ///   cannot be written.
  public func write(to url: URL) throws {
    try AppGroupFile.write(try encoded(), to: url)
  }

  /// The snapshots in the file at `url`, or `nil` if there is no file yet.
  ///
  /// This is what the widget calls; it never opens the store.
  /// - Throws: `StoreError` (`.damaged`, `.newerFormat`) naming the file if it cannot be
  ///   decoded; ``KeyValueStoreError`` (`.io`) with the system's reason if it cannot be read.
  public static func read(from url: URL) throws -> BabyWidgetSnapshots? {
    guard let bytes = try AppGroupFile.read(url) else { return nil }
    return try decode(bytes, path: url.path)
  }

  /// The snapshots in the app group's widget cache (`WidgetCache/snapshots.json`), or `nil`.
  public static func read(appGroupDirectory: URL) throws -> BabyWidgetSnapshots? {
    try read(from: AppGroup.widgetSnapshotsURL(in: appGroupDirectory))
  }

  private struct Header: Decodable {
    var formatVersion: Int
  }

  static func decode(_ bytes: Data, path: String) throws -> BabyWidgetSnapshots {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      guard let date = ISO8601.parse(text) else {
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an ISO 8601 date")
      }
      return date
    }
    let whatToDo = "the widget shows nothing until the app refreshes the snapshots, which rewrites this file"
    let header: Header
    do {
      header = try decoder.decode(Header.self, from: bytes)
    } catch {
      throw StoreError(.damaged, path: path, "not a widget snapshot file (\(FileKeyValueStore.reason(error))); \(whatToDo)")
    }
    // Versions count from 1: a 0 or a negative one was never written by this package.
    guard header.formatVersion >= 1 else {
      throw StoreError(.damaged, path: path, "format version \(header.formatVersion) was never written; \(whatToDo)")
    }
    guard header.formatVersion <= currentFormatVersion else {
      throw StoreError(
        .newerFormat(header.formatVersion), path: path,
        "written by a newer app (format \(header.formatVersion), this widget reads up to \(currentFormatVersion)); update the widget")
    }
    do {
      return try decoder.decode(BabyWidgetSnapshots.self, from: bytes)
    } catch {
      throw StoreError(.damaged, path: path, "unreadable snapshots (\(FileKeyValueStore.reason(error))); \(whatToDo)")
    }
  }
}
