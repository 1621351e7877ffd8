import Foundation

@testable import PlainStore

/// Writes a store as format 1 laid it out — store.json, manifest.json and segments for the
/// first half of the items (a compaction), log files for the rest — to test the migration.
enum FormatOneStore {
  static func items(_ count: Int, seed: Int = 0) -> [MultiProcessItem] {
    (0..<count).map { n in
      MultiProcessItem(
        id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012x", seed * 100_000 + n))!, writer: "v1", batch: n, part: 0,
        at: Date(timeIntervalSince1970: 1_768_469_400 + Double(n % 40) * 6 * 86_400))
    }
  }

  static func write(_ items: [MultiProcessItem], to store: URL) throws {
    let files = StoreFiles(root: store, layout: .format1)
    let encoder = StoreCoding.makeEncoder()
    try FileManager.default.createDirectory(at: files.segmentsURL, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: files.logURL, withIntermediateDirectories: true)
    var header = StoreHeader(schema: MultiProcessItem.schema)
    header.formatVersion = 1
    try encoder.encode(header).write(to: files.headerURL)
    try Data().write(to: files.lockURL)  // every format-1 writer left its lock file
    let table = EntityTable(schema: MultiProcessItem.schema.entities[0])
    let half = items.count / 2
    var manifest = Manifest()
    manifest.formatVersion = 1
    manifest.sequence = half > 0 ? 1 : 0
    if half > 0 {
      let bySegment = Dictionary(grouping: items.prefix(half)) { table.segment(of: $0) }
      for (segment, objects) in bySegment {
        let name = "StressItem.\(segment).00000001.json"
        var out = SegmentFile(entity: "StressItem", segment: segment, objects: objects)
        out.formatVersion = 1
        try encoder.encode(out).write(to: files.segmentsURL.appendingPathComponent(name))
        manifest.segments["StressItem", default: [:]][segment] = SegmentEntry(file: name, count: objects.count)
      }
      try encoder.encode(manifest).write(to: files.manifestURL)
    }
    for (offset, item) in items.dropFirst(half).enumerated() {
      let sequence = manifest.sequence + offset + 1
      var entry = LogEntry(
        sequence: sequence, author: "v1", timestamp: Date(timeIntervalSince1970: 0),
        changes: [LogChange(entity: "StressItem", id: item.id, kind: .insert, segment: table.segment(of: item), from: nil, value: item)])
      entry.formatVersion = 1
      try encoder.encode(entry).write(to: files.format1LogURL(sequence))
    }
  }
}
