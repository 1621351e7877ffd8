import BabyDashboard
import Foundation
import PlainStore

/// What one device shows when it makes, in stamp order, every save the devices of a run made:
/// the meaning of a save that the fold of the change files must keep. Each save is what its
/// device's context was given (a feed logged as it was logged, so what it left nil it did not
/// set; an edit as the change from the copy its editor started from), stamped with the clock
/// stamp of the change file it wrote.
///
/// Where the one device would refuse a save the devices made unaware of each other, the
/// written rules decide: a delete wins (an edit or a delete of an object already deleted, an
/// insert under a deleted id, changes nothing), and a reference to a deleted object is nullified.
struct DifferentialOracle {
  enum Operation {
    case insert(any Entity)
    case update(any Entity, from: any Entity)
    case delete(any Entity.Type, UUID)
  }

  struct Save {
    /// The change file's stamp as text (`<hlc>.<device>.<sequence>`, fixed widths: it sorts
    /// as the stamp does).
    var stamp: String
    var device: Int
    var operation: Operation
  }

  var saves: [Save] = []
  /// Saves that the one device refused, which the written rules decided instead.
  private(set) var refused = 0

  /// Replays every save, in stamp order, on one fresh store in `folder`; returns what it shows.
  mutating func replay(in folder: URL) throws -> String {
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let container = try StoreContainer.file(
      at: folder.appendingPathComponent("BabyDashboard.store"), schema: BabyDashboardSchema.current,
      options: StoreOptions(author: "oracle", clock: { Date(timeIntervalSince1970: 1_773_100_000) }, watchesOtherProcesses: false))
    for save in saves.sorted(by: { $0.stamp < $1.stamp }) {
      let context = container.newBackgroundContext(author: "oracle")
      guard Self.record(save.operation, in: context) else {
        refused += 1
        continue
      }
      _ = try context.save()
    }
    return try DifferentialExport.text(of: container)
  }

  /// The lines only the devices show and those only the one device shows; `whole`, both texts
  /// and the saves in stamp order too.
  func differences(devices: String, oneDevice: String, whole: Bool) -> String {
    let (shown, expected) = (devices.split(separator: "\n"), oneDevice.split(separator: "\n"))
    var lines = shown.filter { !expected.contains($0) }.map { "- devices: \($0)" } + expected.filter { !shown.contains($0) }.map { "+ one device: \($0)" }
    if whole {
      lines += ["devices:", devices, "one device:", oneDevice, "saves:"]
      lines += saves.sorted { $0.stamp < $1.stamp }.map { "\($0.stamp) device\($0.device) \($0.operation)" }
    }
    return lines.joined(separator: "\n")
  }

  /// Gives `context` the operation as the one device would take it; false when the written
  /// rules say it changes nothing.
  private static func record(_ operation: Operation, in context: StoreContext) -> Bool {
    switch operation {
    case .insert(let object):
      func insert<E: Entity>(_ object: E) -> Bool {
        // An insert under a deleted id: the delete wins.
        guard !context.isRetired(E.self, id: object.id) else { return false }
        context.insert(nullified(object, in: context))
        return true
      }
      return insert(object)
    case .update(let edited, let original):
      func update<E: Entity>(_ edited: E) -> Bool {
        guard let original = original as? E, (try? context.storedID(E.self, for: edited.id)) ?? nil != nil else { return false }
        let (edited, from) = nullified(edited, from: original, in: context)
        context.update(edited, from: from)
        return true
      }
      return update(edited)
    case .delete(let type, let id):
      func delete<E: Entity>(_ type: E.Type) -> Bool {
        guard (try? context.storedID(E.self, for: id)) ?? nil != nil else { return false }
        context.delete(E.self, id: id)
        return true
      }
      return delete(type)
    }
  }

  /// The object with a reference to a deleted baby nullified, as the delete's rule would have.
  private static func nullified<E: Entity>(_ object: E, in context: StoreContext) -> E {
    var object = object
    if let baby = babyID(of: object), isGone(baby, in: context) { setBaby(of: &object, to: nil) }
    return object
  }

  /// An edit that gives a feed a baby deleted meanwhile gives it none: the copy it starts from
  /// names that baby, so the change from it is a change to none, whatever the stored feed holds.
  private static func nullified<E: Entity>(_ edited: E, from original: E, in context: StoreContext) -> (edited: E, from: E) {
    guard let baby = babyID(of: edited), baby != babyID(of: original), isGone(baby, in: context) else { return (edited, original) }
    var (edited, original) = (edited, original)
    setBaby(of: &original, to: baby)
    setBaby(of: &edited, to: nil)
    return (edited, original)
  }

  private static func isGone(_ baby: UUID, in context: StoreContext) -> Bool {
    ((try? context.object(BabyProfile.self, id: baby)) ?? nil) == nil
  }

  private static func babyID(of object: some Entity) -> UUID? {
    (object as? FeedSession)?.profileID ?? (object as? DiaperChange)?.profileID
  }

  private static func setBaby<E: Entity>(of object: inout E, to baby: UUID?) {
    if var feed = object as? FeedSession {
      feed.profileID = baby
      object = feed as! E
    } else if var diaper = object as? DiaperChange {
      diaper.profileID = baby
      object = diaper as! E
    }
  }
}

/// The names the store gives change files: `<sequence>.json`, twelve digits.
enum ChangeFileNames {
  static func isChange(_ name: Substring) -> Bool {
    name.count == 17 && name.hasSuffix(".json") && name.prefix(12).allSatisfy(\.isNumber)
  }
}
