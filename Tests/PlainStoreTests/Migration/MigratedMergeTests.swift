import Foundation
import Testing

@testable import PlainStore

/// With migrations, the merge stays a pure function of the set of change files: files of two
/// schema versions fold to the same bytes in every order, and a file of a newer version is left
/// out whole.
@Suite struct MigratedMergeTests {
  static let schema = MergeSchema(NoteSchema.v2)
  let note = testID(1)

  func change(_ device: Int, _ sequence: Int, hlc: UInt64, version: Int, _ fields: [String: RawJSON], groups: [String]? = nil) -> ChangeFile {
    ChangeFile(
      device: testDevice(device), sequence: sequence, hlc: hlc, author: "test", timestamp: Date(timeIntervalSince1970: 0),
      schemaVersion: version, objects: [ObjectChange(entity: "Note", id: note, kind: .upsert, fields: fields, groups: groups)])
  }

  var files: [ChangeFile] {
    [
      change(1, 1, hlc: 10, version: 1, ["text": rawString("buy milk"), "stars": raw("3")]),
      change(2, 1, hlc: 20, version: 2, ["title": rawString("buy milk"), "stars": raw("30"), "isPinned": raw("true")], groups: ["isPinned"]),
      change(1, 2, hlc: 30, version: 1, ["text": rawString("buy oat milk"), "stars": raw("3")], groups: ["text"]),
    ]
  }

  func export(_ files: [ChangeFile]) throws -> Data {
    var state = MergedState(schema: Self.schema)
    for file in files { state.apply(file) }
    return try state.canonicalExport()
  }

  @Test func filesOfTwoSchemaVersionsFoldToTheSameBytesInEveryOrder() throws {
    let expected = try export(files)
    #expect(
      String(decoding: expected, as: UTF8.self)
        == #"{"Note":[{"id":"00000000-0000-4000-8000-000000000001","isPinned":true,"stars":30,"title":"buy oat milk"}]}"#)
    var random = SplitMix64(seed: 0x15)
    for _ in 0..<50 {
      var shuffled = files + [files[Int(random.next() % 3)]]  // a duplicate, as a conflict copy brings
      shuffled.shuffle(using: &random)
      #expect(try export(shuffled) == expected)
    }
  }

  @Test func aFileOfANewerSchemaIsLeftOutWhole() throws {
    let newer = change(3, 1, hlc: 40, version: 3, ["title": rawString("from the future"), "colour": rawString("red")])
    #expect(try export(files + [newer]) == export(files))
  }
}
