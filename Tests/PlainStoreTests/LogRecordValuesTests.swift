import Foundation
import Testing

@testable import PlainStore

/// A small commit's local log record carries its values, the change file's JSON, so that another
/// process catches up on the record alone; a bulk save's names its changes only. Opening still
/// reads this device's commits from their change files (DamageTests: damage to one is refused).
@Suite struct LogRecordValuesTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreLogValues-\(UUID().uuidString)")
  var url: URL { folder.appendingPathComponent("Family.store") }
  var options: StoreOptions {
    var options = Sample.options
    options.watchesOtherProcesses = false
    return options
  }

  func changeFile(_ sequence: Int) -> URL {
    url.appendingPathComponent("changes/\(Sample.device)/" + ChangeFileName.changeName(sequence: sequence))
  }

  /// The change's objects as JSON, from a change file's bytes.
  func objects(ofChangeFile url: URL) throws -> [[String: Any]] {
    guard case .success(let body) = ChangeFileCodec.body(try Data(contentsOf: url)) else { throw StoreError(.damaged, path: url.path, "") }
    let change = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    return try #require(change["objects"] as? [[String: Any]])
  }

  func changes(ofRecord sequence: Int) throws -> [[String: Any]] {
    let json = try LocalLogFile(store: url).json(of: sequence)
    let entry = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    return try #require(entry["changes"] as? [[String: Any]])
  }

  /// Another process's commit reaches this one with its change file out of the way: read from
  /// the log record, not the file, and no rebuild. Before, the catch-up opened the change file
  /// for the values, and its absence made the cache rebuild from changes/, without the event.
  @Test func anotherProcessCatchesUpOnASmallCommitFromItsRecordAlone() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let reader = try StoreContainer.file(at: url, schema: TestSchema.v1, options: options)
    #expect(try reader.newBackgroundContext().fetch(FetchDescriptor<Event>()).isEmpty)
    let writer = try StoreContainer.file(at: url, schema: TestSchema.v1, options: options).newBackgroundContext()
    writer.insert(Event(uuid: Sample.id(2), ownerID: nil, at: Sample.epoch, title: "feed", amount: 90))
    try writer.save()

    let aside = folder.appendingPathComponent("aside.json")
    try FileManager.default.moveItem(at: changeFile(1), to: aside)
    defer { try? FileManager.default.moveItem(at: aside, to: changeFile(1)) }
    #expect(try reader.refresh())
    #expect(try reader.newBackgroundContext().fetch(FetchDescriptor<Event>()).map(\.amount) == [90])
    #expect(reader.statistics.cacheRebuilds == 0)
  }

  /// The record's values are the change file's, member for member; past `valuesInLogLimit`
  /// changes, the record names them only.
  @Test func aSmallCommitsRecordCarriesTheChangeFilesValuesAndABulkSavesDoesNot() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let context = try StoreContainer.file(at: url, schema: TestSchema.v1, options: options).newBackgroundContext()
    context.insert(Owner(id: Sample.id(1), name: "Mia"))
    context.insert(Event(uuid: Sample.id(2), ownerID: Sample.id(1), at: Sample.epoch, title: "feed", amount: 90))
    try context.save()
    let values = try changes(ofRecord: 1).map { try #require($0["value"] as? NSDictionary) }
    let fields = try objects(ofChangeFile: changeFile(1)).map { try #require($0["fields"] as? NSDictionary) }
    #expect(values.count == 2)
    #expect(values == fields)

    context.update(Event(uuid: Sample.id(2), ownerID: Sample.id(1), at: Sample.epoch, title: "feed", amount: 120))
    try context.save()
    let edited = try changes(ofRecord: 2).map { try #require($0["value"] as? NSDictionary) }
    #expect(edited == (try objects(ofChangeFile: changeFile(2)).map { try #require($0["fields"] as? NSDictionary) }))
    #expect(edited.first?["amount"] as? Int == 120)

    for serial in 0...StoreCoordinator.valuesInLogLimit {
      context.insert(Event(uuid: Sample.id(100 + serial), ownerID: nil, at: Sample.date(days: Double(serial)), title: "bulk"))
    }
    try context.save()
    let bulk = try changes(ofRecord: 3)
    #expect(bulk.count == StoreCoordinator.valuesInLogLimit + 1)
    #expect(bulk.allSatisfy { $0["value"] == nil })
  }
}
