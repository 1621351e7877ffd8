import Foundation

/// The id filters of the segment files (``SegmentIDFilter``), in a file of their own beside the
/// manifest (`local/segment-ids`, file name → filter text): a hundred thousand ids make
/// 170 KB of filters that every open would parse in the manifest, and only a merge that must
/// find another device's object by its id reads them. Keyed by file name, so a filters file
/// older or newer than the manifest (a crash between the two writes) only lacks a filter, and
/// a file without one may hold any id. Not flushed: it is a hint, and a damaged one is none
/// (the next compaction writes it whole again). No `.json` in its name: `babydash check` holds
/// every JSON file of the store to parse, and a hint's damage is no problem of the store's.
extension StoreCoordinator {
  /// The filter of one segment file; nil when none is known.
  func segmentIDFilter(of file: String, _ state: inout StoreState, _ files: StoreFiles) -> SegmentIDFilter? {
    if state.segmentIDs?[file] == nil { state.segmentIDs = readSegmentIDs(files) }  // another process may have written it
    return state.segmentIDs?[file].flatMap(SegmentIDFilter.init(text:))
  }

  /// The filters of the files `manifest` names: those already known, and `adding`; with their
  /// file's bytes, nil when they cannot be encoded (the file is a hint: none is written).
  /// `known`: the state's (`StoreState.segmentIDs`), else they are read from their file.
  func segmentIDs(adding filters: [String: String], for manifest: Manifest, known: [String: String]?, _ files: StoreFiles)
    -> (filters: [String: String], data: Data?)
  {
    let named = Set(manifest.segments.values.flatMap { $0.values.map(\.file) })
    var all = (known ?? readSegmentIDs(files)).filter { named.contains($0.key) }
    all.merge(filters) { $1 }
    return (all, try? StoreCoding.makeEncoder().encode(all))
  }

  /// Writes the filters `segmentIDs(adding:for:_:_:)` made, and keeps them.
  func writeSegmentIDs(_ ids: (filters: [String: String], data: Data?), _ state: inout StoreState, _ files: StoreFiles) {
    state.segmentIDs = ids.filters
    guard let data = ids.data else { return }
    try? FileSystem.writeAtomically(data, to: files.segmentIDsURL, displayPath: files.display(files.cachePrefix + "segment-ids"), durable: false)
  }

  private func readSegmentIDs(_ files: StoreFiles) -> [String: String] {
    guard let data = try? FileSystem.read(files.segmentIDsURL, displayPath: files.display(files.cachePrefix + "segment-ids")) else { return [:] }
    return (try? StoreCoding.makeDecoder(schema: schema).decode([String: String].self, from: data)) ?? [:]
  }
}
