import Foundation

@testable import PlainStore

/// The schema the sync tests merge: babies and feeds as the app has them, by property name.
enum SyncTestSchema {
  static let merge = MergeSchema(entities: [
    MergeSchema.Entity(name: "Baby", identityKey: "id", groupOf: [:], uniqueKeys: [], references: []),
    MergeSchema.Entity(
      name: "Feed", identityKey: "uuid",
      groupOf: [
        "startTime": "endTime+startTime", "endTime": "endTime+startTime",
        "amountValue": "amountUnitSymbol+amountValue", "amountUnitSymbol": "amountUnitSymbol+amountValue",
      ],
      uniqueKeys: [["profileID", "startTime"]],
      references: [MergeSchema.Reference(keyName: "profileID", targetEntity: "Baby", deleteRule: .nullify)]),
  ])
}

func raw(_ text: String) -> RawJSON { RawJSON(bytes: Array(text.utf8)) }
func rawString(_ text: String) -> RawJSON { raw("\"\(text)\"") }
func rawID(_ id: UUID) -> RawJSON { MergedState.rawUUID(id) }

/// A device id made from a small number, for readable tests.
func testDevice(_ number: Int) -> DeviceID {
  let digits = String(number, radix: 16)
  return DeviceID(String(repeating: "0", count: 32 - digits.count) + digits)!
}

/// An id made from a small number.
func testID(_ number: Int) -> UUID {
  UUID(uuidString: String(format: "00000000-0000-4000-8000-%012x", number))!
}

/// A fresh folder that the test removes: on a RAM disk where there is one, since the sync
/// tests write tens of thousands of small files and flush each.
struct ScratchFolder {
  let url: URL

  init() throws {
    let base = FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
    url = base.appendingPathComponent("plainstore-sync-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func remove() { try? FileManager.default.removeItem(at: url) }
}
