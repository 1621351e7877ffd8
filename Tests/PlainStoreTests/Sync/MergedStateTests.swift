import Foundation
import Testing

@testable import PlainStore

@Suite struct MergedStateTests {
  let mia = testID(1)
  let feed = testID(10)
  let start = rawString("2026-03-10T07:00:00.000Z")

  func change(_ device: Int, _ sequence: Int, hlc: UInt64, _ objects: [ObjectChange]) -> ChangeFile {
    ChangeFile(
      device: testDevice(device), sequence: sequence, hlc: hlc, author: "test", timestamp: Date(timeIntervalSince1970: 0),
      schemaVersion: 1, objects: objects)
  }

  func upsert(_ entity: String, _ id: UUID, _ fields: [String: RawJSON]) -> ObjectChange {
    ObjectChange(entity: entity, id: id, kind: .upsert, fields: fields)
  }

  func state(_ files: [ChangeFile]) -> MergedState {
    var state = MergedState(schema: SyncTestSchema.merge)
    for file in files { state.apply(file) }
    return state
  }

  var baseFiles: [ChangeFile] {
    [
      change(1, 1, hlc: 10, [upsert("Baby", mia, ["name": rawString("Mia")])]),
      change(
        1, 2, hlc: 20,
        [
          upsert(
            "Feed", feed,
            ["profileID": rawID(mia), "startTime": start, "endTime": .null, "amountValue": .null, "amountUnitSymbol": .null, "memoText": .null])
        ]),
    ]
  }

  @Test func editsOfDifferentFieldsOnTwoDevicesBothSurvive() throws {
    let memo = change(1, 3, hlc: 30, [upsert("Feed", feed, ["memoText": rawString("#latch")])])
    let amount = change(2, 1, hlc: 31, [upsert("Feed", feed, ["amountValue": raw("120"), "amountUnitSymbol": rawString("mL")])])
    let fields = try #require(state(baseFiles + [memo, amount]).materialize()["Feed"]?[feed])
    #expect(fields["memoText"] == rawString("#latch"))
    #expect(fields["amountValue"] == raw("120"))
  }

  @Test func aFieldGroupComesWholeFromItsLastWriter() throws {
    // Device 1 sets the value only; device 2, later, the value and unit: the group is device 2's.
    let a = change(1, 3, hlc: 40, [upsert("Feed", feed, ["amountValue": raw("4"), "amountUnitSymbol": rawString("fl oz")])])
    let b = change(2, 1, hlc: 41, [upsert("Feed", feed, ["amountValue": raw("120"), "amountUnitSymbol": rawString("mL")])])
    for order in [[a, b], [b, a]] {
      let fields = try #require(state(baseFiles + order).materialize()["Feed"]?[feed])
      #expect(fields["amountValue"] == raw("120"))
      #expect(fields["amountUnitSymbol"] == rawString("mL"))
    }
  }

  @Test func aDeleteWinsOverAnEditMadeAfterIt() {
    let delete = change(1, 3, hlc: 30, [ObjectChange(entity: "Feed", id: feed, kind: .delete, fields: nil)])
    let edit = change(2, 1, hlc: 99, [upsert("Feed", feed, ["memoText": rawString("too late")])])
    #expect(state(baseFiles + [delete, edit]).materialize()["Feed"]?[feed] == nil)
    #expect(state([edit, delete] + baseFiles).materialize()["Feed"]?[feed] == nil)
  }

  @Test func aFeedOfADeletedBabyBecomesAnOrphan() throws {
    let deleteBaby = change(1, 3, hlc: 30, [ObjectChange(entity: "Baby", id: mia, kind: .delete, fields: nil)])
    let fields = try #require(state(baseFiles + [deleteBaby]).materialize()["Feed"]?[feed])
    #expect(fields["profileID"] == .null)
  }

  @Test func theSameFeedLoggedOnTwoDevicesEndsAsOneWithFieldsMerged() throws {
    let other = testID(11)
    let second = change(
      2, 1, hlc: 25,
      [upsert("Feed", other, ["profileID": rawID(mia), "startTime": start, "endTime": .null, "amountValue": raw("90"), "amountUnitSymbol": rawString("mL"), "memoText": .null])])
    let feeds = try #require(state(baseFiles + [second]).materialize()["Feed"])
    #expect(feeds.count == 1)
    let survivor = try #require(feeds[feed], "the feed created first survives")
    #expect(survivor["amountValue"] == raw("90"), "the later writer's amount")
    #expect(survivor["uuid"] == rawID(feed))
  }

  /// A feed created first and moved, later, onto a younger feed's key joins it: the holder of
  /// the key survives, with the move's writes; what the mover held before stays behind; what is
  /// written to the mover afterwards reaches the survivor. In every order of the files.
  @Test func anObjectMovedOntoAHeldKeyBecomesTheHoldersAlias() throws {
    let younger = testID(11)
    let otherStart = rawString("2026-03-10T09:00:00.000Z")
    let holder = change(
      2, 1, hlc: 25,
      [upsert("Feed", younger, ["profileID": rawID(mia), "startTime": otherStart, "endTime": .null, "amountValue": raw("90"), "amountUnitSymbol": rawString("mL")])])
    let memo = change(1, 3, hlc: 26, [upsert("Feed", feed, ["memoText": rawString("#before")])])
    var moved = upsert("Feed", feed, ["profileID": rawID(mia), "startTime": otherStart, "endTime": .null])
    moved.groups = ["endTime+startTime", "profileID"]
    let move = change(1, 4, hlc: 30, [moved])
    let after = change(3, 1, hlc: 40, [upsert("Feed", feed, ["amountValue": raw("120"), "amountUnitSymbol": rawString("mL")])])
    let files = baseFiles + [holder, memo, move, after]
    let expected = try state(files).canonicalExport()
    var generator = SplitMix64(seed: 11)
    for _ in 0..<20 { #expect(try state(files.shuffled(using: &generator)).canonicalExport() == expected) }
    let feeds = try #require(state(files).materialize()["Feed"])
    #expect(Set(feeds.keys) == [younger], "the holder survives, not the feed created first")
    #expect(feeds[younger]?["memoText"] == nil, "the mover's memo, written before it moved, stays behind")
    #expect(feeds[younger]?["amountValue"] == raw("120"), "a write to the alias after the move reaches the survivor")
    #expect(state(files).aliases()["Feed"]?[feed] == MergedState.Alias(survivor: younger, since: move.stamp))
  }

  /// Mom logs a feed 10:00–10:20; Dad, whose phone does not have it, logs the same start with
  /// an amount and no end. One phone making both saves, in either order, keeps the end (an
  /// insert's nil sets nothing) and the amount: so does the fold, in every order of the files,
  /// and the feed that held the key first survives.
  @Test func aMemberAnInsertLeftNilKeepsTheValueAnotherWriteGaveIt() throws {
    let dads = testID(11)
    let end = rawString("2026-03-10T07:20:00.000Z")
    for (momsClock, dadsClock) in [(30, 40), (40, 30)] {
      let moms = change(1, 3, hlc: UInt64(momsClock), [upsert("Feed", feed, ["profileID": rawID(mia), "startTime": start, "endTime": end])])
      let theirs = change(
        2, 1, hlc: UInt64(dadsClock),
        [upsert("Feed", dads, ["profileID": rawID(mia), "startTime": start, "amountValue": raw("150"), "amountUnitSymbol": rawString("mL")])])
      let files = [baseFiles[0], moms, theirs]
      let expected = try state(files).canonicalExport()
      var generator = SplitMix64(seed: 5)
      for _ in 0..<20 { #expect(try state(files.shuffled(using: &generator)).canonicalExport() == expected) }
      let feeds = try #require(state(files).materialize()["Feed"])
      let survivor = momsClock < dadsClock ? feed : dads
      #expect(Set(feeds.keys) == [survivor], "the feed logged first holds the key")
      #expect(feeds[survivor]?["endTime"] == end, "Dad's insert left the end nil: it set nothing there")
      #expect(feeds[survivor]?["amountValue"] == raw("150"))
    }
    // Under one id (an import that names feeds the same on every phone) too; and an update that
    // names the group sets it whole: its nil is a value.
    let logged = change(1, 3, hlc: 30, [upsert("Feed", feed, ["profileID": rawID(mia), "startTime": start, "endTime": end])])
    let again = change(2, 1, hlc: 40, [upsert("Feed", feed, ["profileID": rawID(mia), "startTime": start, "amountValue": raw("150")])])
    for order in [[logged, again], [again, logged]] {
      #expect(state([baseFiles[0]] + order).materialize()["Feed"]?[feed]?["endTime"] == end)
    }
    var cleared = upsert("Feed", feed, ["startTime": start])
    cleared.groups = ["endTime+startTime"]
    let clear = change(1, 4, hlc: 50, [cleared])
    for order in [[logged, again, clear], [clear, again, logged], [again, clear, logged]] {
      #expect(state([baseFiles[0]] + order).materialize()["Feed"]?[feed]?["endTime"] == .null, "an update's nil clears")
    }
    // A compaction's snapshot carries which member which write set: folding it with a write
    // that came between keeps the answer.
    var edited = upsert("Feed", feed, ["startTime": start, "endTime": rawString("2026-03-10T07:10:00.000Z")])
    edited.groups = ["endTime+startTime"]
    let between = change(3, 1, hlc: 35, [edited])
    let snapshot = state([baseFiles[0], logged, again]).snapshot(device: testDevice(1), number: 1, hlc: 60, schemaVersion: 1)
    var resumed = MergedState(schema: SyncTestSchema.merge)
    guard case .success(let read) = ChangeFileCodec.decodeSnapshot(try ChangeFileCodec.encode(snapshot)) else {
      Issue.record("the snapshot does not read back")
      return
    }
    resumed.apply(read)
    resumed.apply(between)
    #expect(resumed.materialize()["Feed"]?[feed]?["endTime"] == rawString("2026-03-10T07:10:00.000Z"), "the end the insert left is the edit's")
    #expect(try resumed.canonicalExport() == state([baseFiles[0], logged, again, between]).canonicalExport())
  }

  @Test func foldingIsOrderFreeAndIdempotent() throws {
    let files =
      baseFiles + [
        change(2, 1, hlc: 25, [upsert("Feed", feed, ["memoText": rawString("a")])]),
        change(3, 1, hlc: 25, [upsert("Feed", feed, ["memoText": rawString("b")])]),
        change(2, 2, hlc: 26, [ObjectChange(entity: "Baby", id: mia, kind: .delete, fields: nil)]),
      ]
    let expected = try state(files).canonicalExport()
    var generator = SplitMix64(seed: 7)
    for _ in 0..<50 {
      let shuffled = (files + files.shuffled(using: &generator)).shuffled(using: &generator)
      #expect(try state(shuffled).canonicalExport() == expected)
    }
    #expect(String(decoding: expected, as: UTF8.self).contains(#""memoText":"b""#), "equal clocks: the larger device id wins")
  }
}
