import Foundation
import Testing

@testable import PlainStore

/// A device that only reads (a phone that joined a family and has not written yet, a widget)
/// keeps what it merged as a commit keeps what it wrote: in segments and a manifest, so that its
/// next open reads the cache instead of merging, or replaying the merge, again.
@Suite struct ReadOnlyDeviceTests {
  @Test func aDeviceThatOnlyReadsKeepsWhatItMergedInItsCache() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let writer = scratch.url.appendingPathComponent("writer.store")
    let reader = scratch.url.appendingPathComponent("reader.store")
    let options = StoreOptions(author: "test", clock: Sample.fixedClock, compactionThreshold: 2, watchesOtherProcesses: false)
    let context = try StoreContainer.file(at: writer, schema: TestSchema.v1, options: options).newBackgroundContext()
    for number in 1...6 {
      context.insert(Owner(id: Sample.id(number), name: "Owner \(number)"))
      try context.save()
    }
    // The writer's files arrive one at a time, and the reader merges each as it comes: past
    // the compaction threshold, as a writer's commits would be.
    let files = FileManager.default
    let device = try #require(try files.contentsOfDirectory(atPath: writer.appendingPathComponent("changes").path).first)
    let source = writer.appendingPathComponent("changes/\(device)")
    let target = reader.appendingPathComponent("changes/\(device)")
    try files.createDirectory(at: target, withIntermediateDirectories: true)
    let opened = try StoreContainer.file(at: reader, schema: TestSchema.v1, options: options)
    for name in try files.contentsOfDirectory(atPath: source.path).sorted() {
      try files.copyItem(at: source.appendingPathComponent(name), to: target.appendingPathComponent(name))
      try opened.sync()
    }
    #expect(try opened.newBackgroundContext().fetchCount(FetchDescriptor<Owner>()) == 6)
    let manifest = reader.appendingPathComponent("local/manifest.json")
    #expect(FileManager.default.fileExists(atPath: manifest.path), "the reader's merges are in its cache's manifest")
    let reopened = try StoreContainer.file(at: reader, schema: TestSchema.v1, options: options)
    #expect(reopened.statistics.changeFilesMerged == 0)
    #expect(try files.contentsOfDirectory(atPath: reader.appendingPathComponent("changes").path) == [device], "the reader wrote nothing to sync")
  }
}
