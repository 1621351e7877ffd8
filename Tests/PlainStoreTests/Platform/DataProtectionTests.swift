import Foundation
import Synchronization
import Testing

@testable import PlainStore

/// Every file and folder a store creates gets the data-protection class that lets a widget read
/// it while the phone is locked after its first unlock: they are all created in one place, which
/// applies it. Here that place is watched, and every item of a store that has committed, merged,
/// compacted and rebuilt is held to having gone through it (by inode: temporary files are renamed
/// into place).
@Suite struct DataProtectionTests {
  @Test func everyFileAndFolderTheStoreCreatesGoesThroughTheOnePlaceThatProtectsIt() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let root = scratch.url.path
    let created = Mutex<Set<[UInt64]>>([])
    let stop = DataProtection.observe { path in
      guard path.hasPrefix(root) else { return }  // other tests' stores
      var info = stat()
      if lstat(path, &info) == 0 { _ = created.withLock { $0.insert([UInt64(info.st_dev), UInt64(info.st_ino)]) } }
    }
    defer { stop() }

    let writer = SyncedDevice(scratch.url, 1, TestClock(Sample.epoch))
    try writer.write { $0.insert(Owner(id: Sample.id(1), name: "Mia")) }
    let store = scratch.url.appendingPathComponent("phone.store")
    let options = StoreOptions(author: "phone", compactionThreshold: 4, watchesOtherProcesses: false, deviceID: testDevice(0xe1).text)
    do {
      let phone = try StoreContainer.file(at: store, schema: TestSchema.v1, options: options)
      let context = phone.newBackgroundContext()
      for number in 2...10 {
        context.insert(Owner(id: Sample.id(number), name: "baby \(number)"))
        try context.save()
      }
      for number in 100..<1_300 { context.insert(Owner(id: Sample.id(number), name: "bulk \(number)")) }
      try context.save()
      try FileManager.default.copyItem(
        at: writer.changes.appendingPathComponent(writer.id.text),
        to: store.appendingPathComponent("changes").appendingPathComponent(writer.id.text))
      _ = try phone.sync()
      _ = try phone.compactChanges()
    }
    try FileManager.default.removeItem(at: store.appendingPathComponent("local"))
    _ = try StoreContainer.file(at: store, schema: TestSchema.v1, options: options)

    let copied = store.appendingPathComponent("changes").appendingPathComponent(writer.id.text).path
    var missed: [String] = []
    let enumerator = FileManager.default.enumerator(atPath: store.path)!
    var checked = 0
    while let relative = enumerator.nextObject() as? String {
      let path = store.path + "/" + relative
      guard !path.hasPrefix(copied) else { continue }  // the test copied those, as an engine would
      var info = stat()
      guard lstat(path, &info) == 0 else { continue }
      checked += 1
      if !created.withLock({ $0.contains([UInt64(info.st_dev), UInt64(info.st_ino)]) }) { missed.append(relative) }
    }
    #expect(checked >= 8, "the store's folders and files were looked at")
    #expect(missed == [], "created without their protection class")
  }
}
