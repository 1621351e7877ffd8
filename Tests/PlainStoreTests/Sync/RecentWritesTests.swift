import Foundation
import Testing

@testable import PlainStore

/// The record of recent writes is read and written by the store's coders without Codable's
/// dictionaries (every compaction writes it, every other process reads it again): the same
/// bytes and the same values as the Codable path, which Foundation's coders take.
@Suite struct RecentWritesTests {
  static var samples: [RecentWrites] {
    var objectsOnly = RecentWrites(horizon: 10)
    var grouped = RecentWrites(horizon: 10)
    for number in 1...40 {
      let entity = ["Owner", "Event", "Ä \"quoted\"", "B"][number % 4]
      objectsOnly.note(ObjectKey(entity: entity, id: Sample.id(number * 7919)), at: UInt64(10 + number))
      grouped.note(ObjectKey(entity: entity, id: Sample.id(number * 7919)), groups: number % 3 == 0 ? nil : ["title", "é", "a\\b", "Z"], at: UInt64(10 + number))
      grouped.note(ObjectKey(entity: entity, id: Sample.id(number * 7919)), groups: ["amount"], at: UInt64.max - UInt64(number))
    }
    grouped.note(ObjectKey(entity: "Owner", id: Sample.id(99_991)), groups: ["title"], at: 77)  // one group, not all
    grouped.noteReshaped(at: 30)
    return [RecentWrites(horizon: 0), RecentWrites(horizon: 7), objectsOnly, grouped]
  }

  @Test func theStoresCodersWriteAndReadItAsCodableDoes() throws {
    let decoder = StoreCoding.makeDecoder(schema: TestSchema.v1)
    for recent in Self.samples {
      let ours = try StoreJSONEncoder().encode(recent)
      #expect(ours == (try StoreJSONTests.foundationEncoder().encode(recent)))
      #expect(try decoder.decode(RecentWrites.self, from: ours) == recent)
      #expect(try JSONDecoder().decode(RecentWrites.self, from: ours) == recent)
    }
  }

  /// Whatever the store's decoder reads, it reads as Foundation's (the Codable path) does, or
  /// both refuse it.
  @Test func aDamagedRecordReadsAsCodableReadsIt() throws {
    let decoder = StoreCoding.makeDecoder(schema: TestSchema.v1)
    let text = String(decoding: try StoreJSONEncoder().encode(Self.samples[3]), as: UTF8.self)
    let id = JSONWriter.uuidString(Sample.id(7919))
    // (A key twice is no case: the store's parser refuses it, as `JSONParser` says.)
    let variants = [
      text.replacingOccurrences(of: #""horizon":10"#, with: #""horizon":-1"#),
      text.replacingOccurrences(of: #""horizon":10"#, with: #""horizon":1.0e1"#),
      text.replacingOccurrences(of: #""horizon":10"#, with: #""horizon":"10""#),
      text.replacingOccurrences(of: #","reshaped":30"#, with: ""),
      text.replacingOccurrences(of: #""reshaped":30"#, with: #""reshaped":30,"other":1"#),
      text.replacingOccurrences(of: id, with: "not-an-id"),
      text.replacingOccurrences(of: id, with: "00000000-0000-4000-8000-00000000abcd"),
      text.replacingOccurrences(of: #""title":11"#, with: #""title":null"#),
      text.replacingOccurrences(of: #""title":11"#, with: #""title":"11""#),
      text.replacingOccurrences(of: #"{"groups":{"#, with: #"{"groups":null,"unused":{"#),
      text.replacingOccurrences(of: #"{"groups":{"#, with: #"{"groups":[],"unused":{"#),
      text.replacingOccurrences(of: #""objects":{"#, with: #""objects":{"Owner":[],"#),
      text.replacingOccurrences(of: #""objects":{"#, with: #""objects":{"Empty":{},"#),
      text.replacingOccurrences(of: #""objects":{"#, with: #""objects":null,"x":{"#),
    ]
    for variant in variants {
      #expect(variant != text, "the variant changes nothing: \(variant.prefix(80))")
      let ours = Result { try decoder.decode(RecentWrites.self, from: Data(variant.utf8)) }
      let codable = Result { try JSONDecoder().decode(RecentWrites.self, from: Data(variant.utf8)) }
      switch (ours, codable) {
      case (.success(let ours), .success(let codable)): #expect(ours == codable, "\(variant.prefix(120))")
      case (.failure, .failure): break
      default: Issue.record("the store's decoder and Codable differ on \(variant.prefix(120)): \(ours) against \(codable)")
      }
    }
  }
}
