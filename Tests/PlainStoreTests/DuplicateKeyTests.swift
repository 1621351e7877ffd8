import Foundation
import Testing

@testable import PlainStore

/// An object that names a key twice is damaged: readers disagree on which value wins, so the
/// store refuses it rather than silently reading the first.
@Suite struct DuplicateKeyTests {
  struct Named: Codable, Equatable {
    var name: String
    var child: Child?
    struct Child: Codable, Equatable { var name: String }
  }

  @Test(arguments: [
    #"{"name":"Mia","name":"Ava"}"#,
    #"{"name":"Mia","child":{"name":"a","name":"b"}}"#,
    #"{"name":"Mia","\u006eame":"Ava"}"#,
    #"{"child":null,"name":"Mia","child":null}"#,
    #"{"child":null,"name":"Mia","name":"Ava"}"#,  // ascending up to the repeat
  ])
  func theDecoderRefusesAnObjectWithARepeatedKey(_ text: String) throws {
    let error = try #require(throws: DecodingError.self) {
      try StoreJSONDecoder().decode(Named.self, from: Data(text.utf8))
    }
    #expect(StoreCoding.reason(error).contains("duplicate key"))
  }

  /// Keys in ascending order, one the prefix of the next, and keys out of order: all distinct.
  @Test(arguments: [#"{"child":{"name":"a"},"name":"Mia","namex":1}"#, #"{"namex":1,"name":"Mia","child":{"name":"a"}}"#])
  func distinctKeysInAnyOrderAreRead(_ text: String) throws {
    let named = try StoreJSONDecoder().decode(Named.self, from: Data(text.utf8))
    #expect(named == Named(name: "Mia", child: .init(name: "a")))
  }

  @Test func theSameKeyInDifferentObjectsIsFine() throws {
    let text = #"{"name":"Mia","child":{"name":"Ava"}}"#
    let named = try StoreJSONDecoder().decode(Named.self, from: Data(text.utf8))
    #expect(named == Named(name: "Mia", child: .init(name: "Ava")))
  }

  @Test func aStoreFileWithARepeatedKeyIsRefusedAsDamagedNamingIt() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreTests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("Dup.store")
    do {
      let container = try StoreContainer.file(at: url, schema: TestSchema.v1, options: Sample.options)
      let context = container.newBackgroundContext()
      context.insert(Event(uuid: Sample.id(2), ownerID: nil, at: Sample.epoch, title: "feed"))
      try context.save()
    }
    // Whatever files hold the event, give its title a second value that a last-wins reader
    // would take.
    var touched: [String] = []
    for (relative, data) in try snapshotFiles(url) {
      let text = String(decoding: data, as: UTF8.self)
      guard text.contains(#""title":"feed""#) else { continue }
      let crafted = text.replacingOccurrences(of: #""title":"feed""#, with: #""title":"feed","title":"evil""#)
      try Data(crafted.utf8).write(to: URL(fileURLWithPath: url.path + relative))
      touched.append((relative as NSString).lastPathComponent)
    }
    try #require(!touched.isEmpty)
    let before = try snapshotFiles(url)
    let error = try #require(throws: StoreError.self) {
      let reopened = try StoreContainer.file(at: url, schema: TestSchema.v1)
      _ = try reopened.newBackgroundContext().fetch(FetchDescriptor<Event>())
    }
    #expect(error.code == .damaged)
    #expect(touched.contains { error.path.hasSuffix($0) })
    #expect(try snapshotFiles(url) == before)
  }
}
