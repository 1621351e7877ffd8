import Foundation
import Testing

@testable import PlainStore

/// A deny rule refuses a delete on the device that makes it, while something there still
/// refers to the object. Another device, unaware of the delete, may add a referrer before it
/// arrives: once both changes are everywhere, the delete stands (deletes win: no device can
/// take it back), the referrer stays (it was saved, and nothing deleted it), and its
/// reference is cleared — what one device making both saves in stamp order shows, where the
/// referrer's save to a deleted owner would have been refused as a missing target and the
/// rules decide instead (see DeleteRules.md).
@Suite struct DenyOnArrivalTests {
  typealias Devices = ArrivalOnlyMergeTests.Devices
  let mia = Sample.id(2)
  let lateBadge = Sample.id(21)

  @Test func aReferrerAddedUnawareOfItsOwnersDeleteStaysWithItsReferenceCleared() throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    let (first, second) = (try devices.open(1), try devices.open(2))
    let seeding = first.newBackgroundContext()
    seeding.insert(Owner(id: mia, name: "Mia"))
    try seeding.save()
    try devices.deliver(from: 1, to: 2)
    try second.sync()

    // The first device deletes Mia (nothing refers to her there); the second, before that
    // arrives, gives her a badge, whose reference denies her delete.
    let deleting = first.newBackgroundContext()
    deleting.delete(Owner.self, id: mia)
    try deleting.save()
    let badging = second.newBackgroundContext()
    badging.insert(Badge(id: lateBadge, ownerID: mia))
    try badging.save()
    let refused = second.newBackgroundContext()
    refused.delete(Owner.self, id: mia)
    #expect(throws: StoreError.self, "on the badge's device the deny rule refuses the delete") { try refused.save() }

    try devices.deliver(from: 1, to: 2)
    try devices.deliver(from: 2, to: 1)
    for device in [first, second] {
      try device.sync()
      let context = device.newBackgroundContext()
      #expect(try context.fetch(FetchDescriptor<Owner>()).isEmpty, "the delete stands")
      #expect(try context.fetch(FetchDescriptor<Badge>()) == [Badge(id: lateBadge, ownerID: nil)], "the badge stays, its owner cleared")
    }
    #expect(try devices.rebuilt(Badge.self) == [Badge(id: lateBadge, ownerID: nil)], "a rebuild folds the same")
  }
}
