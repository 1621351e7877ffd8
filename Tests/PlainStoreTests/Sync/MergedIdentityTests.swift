import Foundation
import Testing

@testable import PlainStore

/// A save that moves a stored object onto another's unique key makes it that object's alias for
/// good, on every device, as the fold does: the holder of the key survives with the save's
/// changes, objects that referred to the alias follow it, and an edit or a delete another device
/// addressed to the alias reaches the survivor. The change file says it by moving the alias
/// onto the survivor's key, so a rebuild and every other device find the same survivor.
@Suite struct MergedIdentityTests {
  typealias Devices = ArrivalOnlyMergeTests.Devices
  let ava = Sample.id(1)
  let mia = Sample.id(2)
  let event = Sample.id(10)
  let badge = Sample.id(20)
  /// A clock a minute on: the second device's edits come after the first device's rename.
  static let later: @Sendable () -> Date = { Sample.epoch.addingTimeInterval(60) }

  /// Ava (created first, with an event and a badge that refer to her) and Mia, on both devices.
  func seeded(_ devices: Devices, first: StoreContainer, second: StoreContainer) throws {
    let context = first.newBackgroundContext()
    context.insert(Owner(id: ava, name: "Ava", note: "Ava's note"))
    try context.save()
    context.insert(Owner(id: mia, name: "Mia"))
    context.insert(Event(uuid: event, ownerID: ava, at: Sample.epoch, title: "feed", amount: 90))
    context.insert(Badge(id: badge, ownerID: ava))
    try context.save()
    try devices.deliver(from: 1, to: 2)
    try second.sync()
  }

  /// Renames Ava to Mia on the first device.
  func renameAvaToMia(_ first: StoreContainer) throws -> SaveResult {
    let context = first.newBackgroundContext()
    var renamed = try #require(try context.object(Owner.self, id: ava))
    renamed.name = "Mia"
    context.update(renamed)
    return try context.save()
  }

  @Test func aRenameOntoAnothersNameMakesItTheHoldersAliasWhomItsReferrersFollow() throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    let (first, second) = (try devices.open(1), try devices.open(2))
    try seeded(devices, first: first, second: second)

    let saved = try renameAvaToMia(first)
    #expect(saved.id(of: Owner.self, ava) == mia, "the holder of the name survives")
    let context = first.newBackgroundContext()
    #expect(try context.fetch(FetchDescriptor<Owner>()) == [Owner(id: mia, name: "Mia")], "the rename's changes, on the holder's values")
    #expect(try context.object(Event.self, id: event)?.ownerID == mia, "a referrer follows the alias to its survivor")
    #expect(try context.object(Badge.self, id: badge)?.ownerID == mia, "a deny rule is no obstacle: nothing was deleted")
    #expect(try devices.rebuilt(Event.self).map(\.ownerID) == [mia], "a rebuild has the referrer follow too")

    // Ava's change in the file: moved onto Mia's key, not deleted.
    let changes = try FileManager.default.contentsOfDirectory(atPath: devices.syncFolder(1).appendingPathComponent(Devices.deviceID(1)).path)
      .filter { $0.hasSuffix(".json") && $0 != "device.json" }.sorted()
    let data = try Data(contentsOf: devices.syncFolder(1).appendingPathComponent(Devices.deviceID(1)).appendingPathComponent(changes.last!))
    guard case .success(let rename) = ChangeFileCodec.decode(data) else { Issue.record("the rename's change file does not read"); return }
    let avaChange = try #require(rename.objects.first { $0.id == ava })
    #expect(avaChange.kind == .upsert)
    #expect(avaChange.groups == ["name"])
    #expect(avaChange.fields?["name"] == rawString("Mia"))
  }

  /// Ava's event follows her onto Mia, where Mia has an event at the same time: the two events
  /// meet on their key in turn, and Mia's, the holder, survives as it was — the rename wrote
  /// nothing of Ava's event, so it brings nothing (as when a delete makes two orphans meet).
  /// Every device's fold, and a rebuild, agree.
  @Test func aReferrerThatFollowsTheAliasOntoAHeldKeyMergesInTurn() throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    let (first, second) = (try devices.open(1), try devices.open(2))
    try seeded(devices, first: first, second: second)
    let context = first.newBackgroundContext()
    let miasEvent = Event(uuid: Sample.id(11), ownerID: mia, at: Sample.epoch, title: "Mia's feed")
    context.insert(miasEvent)
    try context.save()

    _ = try renameAvaToMia(first)
    let expected = [miasEvent]
    let local = try first.newBackgroundContext().fetch(FetchDescriptor<Event>())
    #expect(local == expected, "\(local)")
    #expect(first.newBackgroundContext().mergedIDs(Event.self) == [event: miasEvent.uuid])
    try devices.deliver(from: 1, to: 2)
    try second.sync()
    #expect(try second.newBackgroundContext().fetch(FetchDescriptor<Event>()) == expected)
    #expect(try devices.rebuilt(Event.self) == expected)
  }

  /// Both devices seeded, then Ava renamed to Mia on the first; the second runs a minute later.
  func renamedOnTheFirst(_ devices: Devices) throws -> (first: StoreContainer, second: StoreContainer) {
    let (first, second) = (try devices.open(1), try devices.open(2, clock: Self.later))
    try seeded(devices, first: first, second: second)
    _ = try renameAvaToMia(first)
    return (first, second)
  }

  /// Each device's files delivered to the other, and merged there.
  func exchange(_ devices: Devices, _ containers: StoreContainer...) throws {
    try devices.deliver(from: 1, to: 2)
    try devices.deliver(from: 2, to: 1)
    for container in containers { try container.sync() }
  }

  /// A context that read Ava before the rename and edits her then reaches Mia, the object she
  /// is part of now, as an edit from another device does: here, on the other device, after a
  /// rebuild, and after the store is opened again (the cache keeps each alias's survivor).
  @Test func aStaleEditOfAMergedAwayObjectReachesTheSurvivor() throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    let (first, second) = (try devices.open(1), try devices.open(2))
    try seeded(devices, first: first, second: second)
    let stale = first.newBackgroundContext()
    var edited = try #require(try stale.object(Owner.self, id: ava))
    _ = try renameAvaToMia(first)
    edited.note = "too late"
    stale.update(edited)  // measured from what the context read: the note alone
    let saved = try stale.save()
    #expect(saved.id(of: Owner.self, ava) == mia, "the result names the survivor")
    let expected = [Owner(id: mia, name: "Mia", note: "too late")]
    #expect(try first.newBackgroundContext().fetch(FetchDescriptor<Owner>()) == expected)
    #expect(try first.newBackgroundContext().storedID(Owner.self, for: ava) == mia)
    try devices.deliver(from: 1, to: 2)
    try second.sync()
    #expect(try second.newBackgroundContext().fetch(FetchDescriptor<Owner>()) == expected)
    #expect(try devices.rebuilt(Owner.self) == expected)

    // Known after the store is opened again, on both devices: from the cache's manifest or its
    // log on the first, from the whole fold on the second.
    let reopened = try devices.open(1)
    for (device, note) in [(reopened, "edited by id"), (second, "edited on the second")] {
      let context = device.newBackgroundContext()
      #expect(try context.storedID(Owner.self, for: ava) == mia)
      #expect(context.mergedIDs(Owner.self) == [ava: mia])
      let owner = try context.edit(Owner.self, id: ava) { $0.note = note }
      #expect(owner.id == mia, "edit(_:id:) edits the survivor")
      try context.save()
      #expect(try device.newBackgroundContext().object(Owner.self, id: mia)?.note == note)
    }
  }

  /// A stale delete of the alias deletes the survivor, here as from another device.
  @Test func aStaleDeleteOfAMergedAwayObjectDeletesTheSurvivor() throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    let (first, second) = try renamedOnTheFirst(devices)
    let context = first.newBackgroundContext()
    context.delete(Badge.self, id: badge)  // which follows Ava to Mia, and denies her delete
    context.delete(Owner.self, id: ava)
    let saved = try context.save()
    #expect(saved.id(of: Owner.self, ava) == mia)
    #expect(try first.newBackgroundContext().fetch(FetchDescriptor<Owner>()).isEmpty)
    #expect(try first.newBackgroundContext().object(Event.self, id: event)?.ownerID == nil, "its event, an orphan")
    #expect(try first.newBackgroundContext().storedID(Owner.self, for: ava) == nil, "gone with its survivor")
    try devices.deliver(from: 1, to: 2)
    try second.sync()
    #expect(try second.newBackgroundContext().fetch(FetchDescriptor<Owner>()).isEmpty)
    #expect(try devices.rebuilt(Owner.self).isEmpty)
  }

  /// An object deleted (not merged) is still refused by a stale edit, which says so.
  @Test func aStaleEditOfADeletedObjectIsRefused() throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    let first = try devices.open(1)
    let context = first.newBackgroundContext()
    context.insert(Owner(id: ava, name: "Ava"))
    try context.save()
    let stale = first.newBackgroundContext()
    var edited = try #require(try stale.object(Owner.self, id: ava))
    context.delete(Owner.self, id: ava)
    try context.save()
    edited.note = "too late"
    stale.update(edited)
    #expect {
      try stale.save()
    } throws: { error in
      let error = error as? StoreError
      return error?.code == .notFound && error?.path == "Owner \(ava.uuidString)"
        && error?.detail.contains("was deleted by another context or process") == true
        && error?.detail.contains("insert") == false
    }
  }

  @Test func anEditAnotherDeviceAddressedToTheAliasReachesTheSurvivor() throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    let (first, second) = try renamedOnTheFirst(devices)

    // The second device, unaware of the rename, edits Ava's note, later.
    let context = second.newBackgroundContext()
    var edited = try #require(try context.object(Owner.self, id: ava))
    edited.note = "from the other phone"
    context.update(edited)
    try context.save()

    try exchange(devices, first, second)
    for device in [first, second] {
      #expect(try device.newBackgroundContext().fetch(FetchDescriptor<Owner>()) == [Owner(id: mia, name: "Mia", note: "from the other phone")])
    }
    #expect(try devices.rebuilt(Owner.self) == [Owner(id: mia, name: "Mia", note: "from the other phone")])
  }

  @Test func aDeleteAnotherDeviceAddressedToTheAliasDeletesTheSurvivor() throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    let (first, second) = try renamedOnTheFirst(devices)

    let context = second.newBackgroundContext()
    context.delete(try #require(try context.object(Badge.self, id: badge)))
    context.delete(try #require(try context.object(Owner.self, id: ava)))
    try context.save()

    try exchange(devices, first, second)
    for device in [first, second] {
      #expect(try device.newBackgroundContext().fetch(FetchDescriptor<Owner>()).isEmpty, "deleting the alias deletes the object it is")
      #expect(try device.newBackgroundContext().object(Event.self, id: event)?.ownerID == nil, "its event, an orphan")
    }
    #expect(try devices.rebuilt(Owner.self).isEmpty)
  }

  /// Every device keeps a delete for good, so a deleted id never takes writes again: an insert
  /// under it is refused, naming it, and nothing is written — where the cache would have shown
  /// an object that no rebuild and no other device ever shows. Under a merged-away id, the
  /// insert reaches the survivor.
  @Test func anInsertUnderAnIDLetGoIsRefused() throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    let (first, _) = try renamedOnTheFirst(devices)
    let context = first.newBackgroundContext()
    context.delete(try #require(try context.object(Event.self, id: event)))
    try context.save()
    let before = try snapshotFiles(devices.scratch.url)
    let again = first.newBackgroundContext()
    again.insert(Event(uuid: event, ownerID: nil, at: Sample.epoch, title: "again"))
    #expect {
      try again.save()
    } throws: { error in
      let error = error as? StoreError
      return error?.code == .notFound && error?.path == "Event \(event.uuidString)"
        && error?.detail.contains("insert it under a new id") == true
    }
    #expect(try snapshotFiles(devices.scratch.url) == before, "nothing written")
    // Under the merged-away id, the insert reaches the object it is part of, as a write from
    // another device does, and the id stays unwritten.
    let merging = first.newBackgroundContext()
    merging.insert(Owner(id: ava, name: "Mia", note: "merged"))
    let saved = try merging.save()
    #expect(saved.id(of: Owner.self, ava) == mia)
    #expect(try devices.rebuilt(Owner.self) == [Owner(id: mia, name: "Mia", note: "merged")])
  }

  /// A cache folded by the rules before the holder survived (a manifest without `mergeRules`)
  /// that shows a merge or a delete is rebuilt at open, and says why; one with neither is kept.
  @Test func aCacheFoldedByOlderMergeRulesIsRebuiltWhenItShowsAMerge() throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    let manifest = devices.scratch.url.appendingPathComponent("1.store/local/manifest.json")
    func dropMergeRules() throws {
      var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any])
      #expect(json.removeValue(forKey: "mergeRules") as? Int == MergedState.rulesVersion)
      try JSONSerialization.data(withJSONObject: json).write(to: manifest)
    }
    do {
      let first = try devices.open(1)
      let context = first.newBackgroundContext()
      context.insert(Owner(id: ava, name: "Ava"))
      try context.save()
      _ = try first.compactChanges()
    }
    try dropMergeRules()
    #expect(try devices.open(1).cacheRebuildReason == nil, "nothing merged or deleted: the rules cannot differ")
    do {
      let first = try devices.open(1)
      let context = first.newBackgroundContext()
      context.insert(Owner(id: mia, name: "Mia"))
      try context.save()
      _ = try renameAvaToMia(first)
      _ = try first.compactChanges()
    }
    try dropMergeRules()
    let reopened = try devices.open(1)
    #expect(reopened.cacheRebuildReason?.contains("merge rules of version 1, not \(MergedState.rulesVersion)") == true, "\(reopened.cacheRebuildReason ?? "not rebuilt")")
    #expect(try reopened.newBackgroundContext().fetch(FetchDescriptor<Owner>()) == [Owner(id: mia, name: "Mia")])
  }

  /// Both devices add Zoe before they have seen each other: when their files meet, each
  /// device's merge report says what happened to the Zoe it held. The device whose Zoe
  /// survives lists her with the other device's id merged into her, even though the merge
  /// changed none of her values (the same before and after); the other lists its Zoe merged
  /// into the survivor, and the survivor added. A later merge says nothing of it again.
  @Test func eachDevicesMergeReportSaysWhatMergedIntoTheObjectItHeld() throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    let (first, second) = (try devices.open(1), try devices.open(2))
    let (firsts, seconds) = (Sample.id(30), Sample.id(31))
    for (container, id) in [(first, firsts), (second, seconds)] {
      let context = container.newBackgroundContext()
      context.insert(Owner(id: id, name: "Zoe"))
      try context.save()
    }
    try devices.deliver(from: 1, to: 2)
    try devices.deliver(from: 2, to: 1)
    try first.sync()
    try second.sync()
    let survivor = try #require(try first.newBackgroundContext().fetch(FetchDescriptor<Owner>()).first?.id)
    #expect(try second.newBackgroundContext().fetch(FetchDescriptor<Owner>()).map(\.id) == [survivor], "one Zoe on both")
    let (keeper, loser, alias) = survivor == firsts ? (1, 2, seconds) : (2, 1, firsts)
    let containers = [1: first, 2: second]

    let kept = try #require(containers[keeper]!.lastMergeReport).changes
    #expect(kept.count == 1, "\(kept)")
    #expect(kept.first?.id == survivor && kept.first?.kind == .updated && kept.first?.mergedFrom == [alias])
    #expect(kept.first?.before as? Owner == Owner(id: survivor, name: "Zoe") && kept.first?.after as? Owner == Owner(id: survivor, name: "Zoe"))

    let lost = try #require(containers[loser]!.lastMergeReport).changes
    #expect(lost.count == 2, "\(lost)")
    #expect(lost.first { $0.id == alias }?.kind == .deleted && lost.first { $0.id == alias }?.mergedInto == survivor)
    #expect(lost.first { $0.id == survivor }?.kind == .inserted)
    #expect(lost.allSatisfy { $0.mergedFrom.isEmpty }, "the survivor is new there: it was added")

    // A later merge says nothing of Zoe again.
    let context = containers[keeper]!.newBackgroundContext()
    context.insert(Owner(id: Sample.id(32), name: "Ada"))
    try context.save()
    try devices.deliver(from: keeper, to: loser)
    try containers[loser]!.sync()
    let later = try #require(containers[loser]!.lastMergeReport).changes
    #expect(later.map(\.id) == [Sample.id(32)] && later.allSatisfy { $0.mergedFrom.isEmpty }, "\(later)")
  }
}
