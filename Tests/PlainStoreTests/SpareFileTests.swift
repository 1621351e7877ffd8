import Foundation
import Testing

@testable import PlainStore

/// A spare made before the lock becomes the change file, or is let go without a trace: what is
/// on disk after a commit is the same with it as without.
@Suite struct SpareFileTests {
  /// Two folders of one file system, as `local/` and `changes/<device>/` are, removed after.
  func withFolders(_ body: (String, String) throws -> Void) throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("SpareFileTests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    for name in ["local", "changes"] {
      try FileManager.default.createDirectory(at: root.appendingPathComponent(name), withIntermediateDirectories: true)
    }
    try body(root.appendingPathComponent("local").path, root.appendingPathComponent("changes").path)
  }

  func names(in folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
  }

  @Test func aPlacedSpareIsTheFileUnderItsNameAndNothingElse() throws {
    try withFolders { local, changes in
      let spare = try #require(SpareFile(in: local))
      #expect(try names(in: local).count == 1)
      let bytes = Data("{\"a\":1}".utf8)
      #expect(try FileSystem.createOnce(bytes, atPath: changes + "/000000000001.json", displayPath: "x", durable: false, spare: spare))
      #expect(try Data(contentsOf: URL(fileURLWithPath: changes + "/000000000001.json")) == bytes)
      let mode = try #require(try FileManager.default.attributesOfItem(atPath: changes + "/000000000001.json")[.posixPermissions] as? Int)
      #expect(mode == 0o600)
      #expect(try names(in: local).isEmpty, "the spare's name is gone with the rename")
      spare.discard()  // used: nothing more happens
      #expect(try names(in: changes) == ["000000000001.json"])
    }
  }

  /// Another process's first commit removes leftover temporary files, a live spare among them:
  /// the file is then created as if there had been no spare.
  @Test func aSpareRemovedUnderneathIsLetGoAndTheFileMadeAnyway() throws {
    try withFolders { local, changes in
      let spare = try #require(SpareFile(in: local))
      FileSystem.removeLeftoverTemporaryFiles(in: URL(fileURLWithPath: local))
      #expect(try names(in: local).isEmpty)
      let bytes = Data("{\"b\":2}".utf8)
      #expect(try FileSystem.createOnce(bytes, atPath: changes + "/000000000002.json", displayPath: "x", durable: false, spare: spare))
      #expect(try Data(contentsOf: URL(fileURLWithPath: changes + "/000000000002.json")) == bytes)
      #expect(try names(in: changes) == ["000000000002.json"], "no temporary file left beside it")
      #expect(try names(in: local).isEmpty)
    }
  }

  /// A name taken already is not overwritten, and a spare not used is removed when let go.
  @Test func anUnusedSpareIsRemovedAndATakenNameKept() throws {
    try withFolders { local, changes in
      let target = changes + "/000000000003.json"
      try Data("old".utf8).write(to: URL(fileURLWithPath: target))
      let spare = try #require(SpareFile(in: local))
      #expect(try !FileSystem.createOnce(Data("new".utf8), atPath: target, displayPath: "x", durable: false, spare: spare))
      #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("old".utf8))
      #expect(try names(in: local).count == 1, "still there until let go")
      spare.discard()
      spare.discard()
      #expect(try names(in: local).isEmpty)
    }
  }

  /// Through the store: each commit's change file, and no spare left, also after a save that
  /// changes nothing and one that fails its check.
  @Test func commitsLeaveNoSpareBehind() throws {
    try withTemporaryStore { container in
      let context = container.newBackgroundContext()
      let owner = Owner(id: Sample.id(1), name: "Mia")
      context.insert(owner)
      try context.save()
      context.insert(owner)  // the same value again: nothing to commit
      try context.save()
      context.insert(Event(uuid: Sample.id(2), ownerID: Sample.id(1), at: Sample.epoch, title: "feed", amount: 90))
      try context.save()
      context.insert(Event(uuid: Sample.id(3), ownerID: Sample.id(1), at: Sample.epoch, title: "bad", amount: .nan))
      #expect(throws: StoreError.self) { try context.save() }

      let store = try #require(container.directory)
      let local = try names(in: store.appendingPathComponent("local").path)
      #expect(local.filter { $0.hasPrefix(".") }.isEmpty, "\(local)")
      let changes = try names(in: store.appendingPathComponent("changes/\(Sample.device)").path)
      #expect(changes == ["000000000001.json", "000000000002.json", "device.json"])
    }
  }
}
