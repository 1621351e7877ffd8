import Foundation
import Testing

@testable import PlainStore

/// A context's unsaved changes keep the order objects were first changed in, one change per
/// object, and an insert deleted before a save leaves nothing behind.
@Suite struct PendingChangesTests {
  func change(_ n: Int, _ kind: PendingChange.Kind, entity: String = "Event") -> PendingChange {
    PendingChange(entity: entity, id: Sample.id(n), kind: kind, value: kind == .delete ? nil : Owner(id: Sample.id(n), name: "\(n)", note: nil))
  }

  @Test func oneChangePerObjectInTheOrderFirstChanged() {
    var changes = PendingChanges()
    for (n, kind) in [(1, PendingChange.Kind.insert), (2, .update), (3, .insert), (1, .update), (2, .delete)] {
      changes.record(change(n, kind))
    }
    #expect(changes.all.map(\.id) == [1, 2, 3].map(Sample.id))
    #expect(changes.all.map(\.kind) == [.insert, .delete, .insert], "an update of an insert is still an insert")
    #expect(changes.recorded == 5)

    changes.record(change(3, .delete))  // an insert deleted: nothing to save for it
    #expect(changes.all.map(\.id) == [1, 2].map(Sample.id))
    #expect(changes[ObjectKey(entity: "Event", id: Sample.id(3))] == nil)
    changes.record(change(3, .insert))  // again: now last
    #expect(changes.all.map(\.id) == [1, 2, 3].map(Sample.id))

    changes.record(change(9, .insert, entity: "Owner"))
    #expect(Set(changes.changes(of: "Event").map(\.id)) == Set([1, 2, 3].map(Sample.id)))
    #expect(changes.hasChanges(of: "Owner") && !changes.hasChanges(of: "Badge"))

    for n in [1, 2, 3] { changes.remove(ObjectKey(entity: "Event", id: Sample.id(n))) }
    changes.remove(ObjectKey(entity: "Owner", id: Sample.id(9)))
    #expect(changes.isEmpty && changes.all.isEmpty)
    changes.record(change(4, .insert))
    #expect(changes.all.map(\.id) == [Sample.id(4)])
  }

  /// A save forgets the changes it took; one recorded while it committed stays for the next.
  @Test func aChangeRecordedWhileASaveCommitsStays() {
    var changes = PendingChanges()
    changes.record(change(1, .insert))
    changes.record(change(2, .insert))
    let taken = changes.recorded  // what a save takes, and the count when it took it
    changes.record(change(2, .update))  // another thread, while the save commits
    changes.record(change(3, .insert))
    for n in [1, 2] { changes.remove(ObjectKey(entity: "Event", id: Sample.id(n)), recordedBy: taken) }
    #expect(changes.all.map(\.id) == [2, 3].map(Sample.id))
    #expect(changes.all.map(\.kind) == [.insert, .insert])
  }
}
