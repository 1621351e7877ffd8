import Foundation

extension StoreCoordinator {
  // MARK: Segments, loaded when first needed

  /// Makes sure a segment's objects are in memory.
  func ensureLoaded(_ table: EntityTable, _ segment: String, _ state: inout StoreState) throws {
    guard let slot = table.slots[segment], !slot.isLoaded, slot.file != nil else { return }
    try backing.loadSegment(table, segment, &state, self)
  }

  /// Reads a segment's file: the manifest's, or, when it is not there, the one the manifest of
  /// another process's compaction names.
  func loadSegment(_ table: EntityTable, _ segment: String, _ state: inout StoreState, _ files: StoreFiles) throws {
    if try loadSegmentFile(table, segment, &state, files) { return }
    // Another process's compaction may have replaced the file: look at its manifest and retry.
    try catchUp(&state, files)
    guard let retry = table.slots[segment], !retry.isLoaded, retry.file != nil else { return }
    if try loadSegmentFile(table, segment, &state, files) { return }
    throw StoreError(
      .missing, path: files.display(files.segmentPath(retry.file ?? segment)),
      "manifest.json lists this segment but the file is not there — open the store again to rebuild its cache from changes/.")
  }

  private func loadSegmentFile(_ table: EntityTable, _ segment: String, _ state: inout StoreState, _ files: StoreFiles) throws -> Bool {
    guard let file = table.slots[segment]?.file else { return true }
    let relative = files.segmentPath(file)
    let decoder = StoreCoding.makeDecoder(schema: schema)
    let decoded: (any SegmentObjects)?
    do {
      decoded = try Self.decodeSegment(
        table.schema, url: files.segmentsURL.appendingPathComponent(file), relative: relative, segment: segment,
        files: files, decoder: decoder, expected: state.manifestEntry(of: file, table.schema.name, segment))
    } catch let error as StoreError where Self.isCacheDamage(error, files) {
      throw markCacheDamaged(error, files)
    }
    guard let objects = decoded else { return false }
    table.load(segment, objects: objects)
    state.statistics.segmentFilesRead += 1
    return true
  }

  /// A segment file's objects, hashed by id (on the calling thread), or nil when the file is
  /// not there.
  private static func decodeSegment(
    _ schema: EntitySchema, url: URL, relative: String, segment: String, files: StoreFiles, decoder: StoreJSONDecoder,
    expected: SegmentEntry?
  ) throws -> (any SegmentObjects)? {
    func typed<E: Entity>(_ type: E.Type) throws -> (any SegmentObjects)? {
      guard let objects = try decodeSegment(type, url: url, relative: relative, segment: segment, files: files, decoder: decoder, expected: expected)
      else { return nil }
      let table = schema.makeObjects() as! TypedSegmentObjects<E>
      table.fill(objects)
      return table
    }
    return try typed(schema.type)
  }

  private static func decodeSegment<E: Entity>(
    _ type: E.Type, url: URL, relative: String, segment: String, files: StoreFiles, decoder: StoreJSONDecoder,
    expected: SegmentEntry?
  ) throws -> [E]? {
    guard let file = try files.decode(SegmentFile<[E]>.self, at: url, relative: relative, decoder: decoder, expected: expected)
    else {
      return nil
    }
    guard file.entity == E.entityName, file.segment == segment else {
      throw StoreError(
        .damaged, path: files.display(relative),
        "holds \(file.entity) \(file.segment), not \(E.entityName) \(segment) — \(StoreFiles.untouched)")
    }
    return file.objects
  }

  func loadAll(_ table: EntityTable, _ state: inout StoreState) throws {
    let segments = table.slots.keys.sorted()
    try preload(table, segments, &state)
    for segment in segments { try ensureLoaded(table, segment, &state) }
  }

  /// Loads the unloaded segments among `segments`, decoding their files on every core: JSON
  /// decoding is most of the time of a fetch that reads many months. A file that is not there
  /// is left to `ensureLoaded`, which catches up and retries.
  func preload(_ table: EntityTable, _ segments: [String], _ state: inout StoreState) throws {
    try backing.preload(table, segments, &state, self)
  }

  /// Preloading on files: each segment's file decoded on a core of its own.
  func preload(_ table: EntityTable, _ segments: [String], _ state: inout StoreState, _ files: StoreFiles) throws {
    let jobs = segments.compactMap { segment -> (segment: String, file: String)? in
      guard let slot = table.slots[segment], !slot.isLoaded, let file = slot.file else { return nil }
      return (segment, file)
    }
    guard jobs.count > 1 else { return }
    let results = StoreMutex<[Int: Result<(any SegmentObjects)?, any Error>]>([:])
    let entity = table.schema
    let schema = self.schema
    let expected = jobs.map { state.manifestEntry(of: $0.file, table.schema.name, $0.segment) }
    DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
      let job = jobs[index]
      let result = Result {
        try Self.decodeSegment(
          entity, url: files.segmentsURL.appendingPathComponent(job.file), relative: files.segmentPath(job.file),
          segment: job.segment, files: files, decoder: StoreCoding.makeDecoder(schema: schema), expected: expected[index])
      }
      results.withLock { $0[index] = result }
    }
    let decoded = results.withLock { $0 }
    let loading = decoded.values.reduce(0) { total, result in
      guard case .success(let objects?) = result else { return total }
      return total + objects.count
    }
    table.segmentOf.reserveCapacity(table.segmentOf.count + loading)
    for (index, job) in jobs.enumerated() {
      let objects: (any SegmentObjects)?
      do {
        objects = try decoded[index]?.get()
      } catch let error as StoreError where Self.isCacheDamage(error, files) {
        throw markCacheDamaged(error, files)
      }
      guard let objects else { continue }
      table.load(job.segment, objects: objects)
      state.statistics.segmentFilesRead += 1
    }
  }

  /// The committed object with this id, if any. `segment` (where a value of the object goes)
  /// names the segment to look in first; `thorough` loads every segment before it answers "none".
  func committedObject(
    _ table: EntityTable, _ id: UUID, segment hint: String?, thorough: Bool, _ state: inout StoreState
  ) throws -> (any Entity)? {
    if let segment = table.segmentOf[id] {
      try ensureLoaded(table, segment, &state)
      if let object = table.slots[segment]?.objects?[id] { return object }
    }
    let first = hint ?? SegmentKey.all
    if let slot = table.slots[first] {
      // A loaded month, as the months a save writes to mostly are, costs one lookup, not three.
      var objects = slot.objects
      if objects == nil {
        try ensureLoaded(table, first, &state)
        objects = table.slots[first]?.objects
      }
      if let object = objects?[id] { return object }
    }
    guard thorough, !table.isFullyLoaded else { return nil }
    try loadAll(table, &state)
    return table.segmentOf[id].flatMap { table.slots[$0]?.objects?[id] }
  }
}
