@testable import BabyDashboard
import Foundation
import Testing

/// The reader of `bplist00` documents behind the model cache, checked against what Foundation's
/// own `PropertyListSerialization` writes.
@Suite struct BinaryPropertyListTests {
  @Test func aDocumentFoundationWroteReadsBackValueForValue() throws {
    let long = String(repeating: "entity", count: 10)
    let plist: [String: Any] = [
      "NSPersistenceFrameworkVersion": 1345, "negative": -7, "large": Int64(1) << 40, "ratio": 0.25,
      "NSStoreType": "SQLite", "long": long, "unicode": "큰 병 #formula", "flag": true,
      "hash": Data([0, 1, 2, 255]), "NSStoreModelVersionIdentifiers": ["1.0.0"],
      "nested": ["empty": [String](), "many": Array(0..<20)],
    ]
    let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    let value = try BinaryPropertyList.parse(data)
    guard case .dictionary(let root) = value else {
      Issue.record("not a dictionary: \(value)")
      return
    }
    #expect(root["NSPersistenceFrameworkVersion"] == .integer(1345))
    #expect(root["negative"] == .integer(-7))
    #expect(root["large"] == .integer(1 << 40))
    #expect(root["ratio"] == .real(0.25))
    #expect(root["NSStoreType"] == .string("SQLite"))
    #expect(root["long"] == .string(long))
    #expect(root["unicode"] == .string("큰 병 #formula"))
    #expect(root["flag"] == .bool(true))
    #expect(root["hash"] == .data(Data([0, 1, 2, 255])))
    #expect(root["NSStoreModelVersionIdentifiers"] == .array([.string("1.0.0")]))
    #expect(root["nested"] == .dictionary(["empty": .array([]), "many": .array((0..<20).map { .integer(Int64($0)) })]))
  }

  @Test(arguments: [Data(), Data("bplist00".utf8), Data("bplist00".utf8) + Data(repeating: 0xFF, count: 40), Data("<plist/>".utf8)])
  func aDamagedDocumentIsAnErrorNotACrash(_ data: Data) {
    #expect(throws: BinaryPropertyList.Failure.self) { try BinaryPropertyList.parse(data) }
  }
}
