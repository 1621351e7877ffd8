import BabyDashboardTesting
import Foundation
@testable import PlainStore
import Testing

/// Live queries and observations in one process: they follow saves in any context, coalesce
/// bursts, ignore other entities, and stop with their owner.
@MainActor @Suite struct LiveQueryTests {
  let byName = FetchDescriptor<Owner>(sortBy: [SortDescriptor(\.name)])

  @Test func resultsFollowASaveInAnotherContext() async throws {
    let container = try StoreContainer.temporary(schema: TestSchema.v1, options: Sample.options)
    defer { try? container.destroy() }
    let query = try container.liveQuery(byName)
    #expect(query.results.isEmpty)

    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(1), name: "Mia", note: nil))
    try context.save()
    #expect(await waitUntil(query) { $0.map(\.name) == ["Mia"] })

    var mia = try #require(try context.object(Owner.self, id: Sample.id(1)))
    mia.name = "Mila"
    context.update(mia)
    context.insert(Owner(id: Sample.id(2), name: "Leo", note: nil))
    try context.save()
    #expect(await waitUntil(query) { $0.map(\.name) == ["Leo", "Mila"] })

    context.delete(Owner.self, id: Sample.id(2))
    try context.save()
    #expect(await waitUntil(query) { $0.map(\.name) == ["Mila"] })
    #expect(query.error == nil)
  }

  /// A query of a descriptor refetches off the main thread and hands its results to the main
  /// actor; a refetch asked for at once runs where it is asked.
  @Test func aRefetchAfterAChangeDecodesOffTheMainThread() async throws {
    let container = try StoreContainer.temporary(schema: TestSchema.v1, options: Sample.options)
    defer { try? container.destroy() }
    let query = try container.liveQuery(byName)
    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(1), name: "Mia", note: nil))
    try context.save()
    #expect(await waitUntil(query) { $0.map(\.name) == ["Mia"] })
    #expect(!query.lastFetchRanOnMainThread, "decoded on the cooperative pool")
    #expect(query.fetchCount == 2)
  }

  /// A value of the store and a screen's state: the state is read on the main actor when a
  /// change comes, the value computed from it off the main thread.
  @Test func aValueOfAScreensStateIsComputedOffTheMainThread() async throws {
    let container = try StoreContainer.temporary(schema: TestSchema.v1, options: Sample.options)
    defer { try? container.destroy() }
    final class Screen { var prefix = "M" }
    let screen = Screen()
    let query = try container.liveQuery(tracking: [Owner.self], state: { screen.prefix }) { context, prefix in
      try context.fetch(FetchDescriptor<Owner>(sortBy: [SortDescriptor(\.name)])).map(\.name).filter { $0.hasPrefix(prefix) }
    }
    let delivered = StoreMutex<[[String]]>([])
    query.onChange = { names in delivered.withLock { $0.append(names) } }
    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(1), name: "Mia", note: nil))
    context.insert(Owner(id: Sample.id(2), name: "Leo", note: nil))
    try context.save()
    #expect(await waitUntil(query) { $0 == ["Mia"] })
    #expect(!query.lastFetchRanOnMainThread, "computed on the cooperative pool")
    screen.prefix = "L"
    try query.refetch()
    #expect(query.results == ["Leo"])
    #expect(delivered.withLock { $0 } == [["Mia"], ["Leo"]])
  }

  @Test func aBurstOfHundredSavesRefetchesOnce() async throws {
    let container = try StoreContainer.temporary(schema: TestSchema.v1, options: Sample.options)
    defer { try? container.destroy() }
    let query = try container.liveQuery(byName)
    #expect(query.fetchCount == 1)

    // The saves run on the main actor, as a screen's would: the query refetches when it is free.
    let context = container.newBackgroundContext()
    for n in 1...100 {
      context.insert(Owner(id: Sample.id(n), name: "Owner \(n)", note: nil))
      try context.save()
    }
    #expect(query.monitor.signalCount == 100)
    #expect(await waitUntil(query) { $0.count == 100 })
    #expect(query.fetchCount == 2, "100 saves, one refetch")
  }

  @Test func commitsThatTouchOnlyOtherEntitiesAreIgnored() async throws {
    let container = try StoreContainer.temporary(schema: TestSchema.v1, options: Sample.options)
    defer { try? container.destroy() }
    let query = try container.liveQuery(byName)

    let context = container.newBackgroundContext()
    context.insert(Event(uuid: Sample.id(10), ownerID: nil, at: Sample.epoch, title: "feed", amount: 120))
    try context.save()
    #expect(!query.monitor.hasChange, "a save of Event does not concern a query of Owner")
    #expect(query.monitor.signalCount == 0)

    context.insert(Owner(id: Sample.id(1), name: "Mia", note: nil))
    try context.save()
    #expect(query.monitor.hasChange)
    #expect(await waitUntil(query) { $0.count == 1 })
    #expect(query.fetchCount == 2)
  }

  @Test func aReleasedQueryStopsListeningAndItsTaskEnds() async throws {
    let container = try StoreContainer.temporary(schema: TestSchema.v1, options: Sample.options)
    defer { try? container.destroy() }
    weak var released: LiveQuery<[Owner]>?
    var query: LiveQuery<[Owner]>? = try container.liveQuery(byName)
    released = query
    let monitor = try #require(query?.monitor)
    let listener = try #require(query?.listener)
    query = nil

    #expect(released == nil, "the listening task holds the query weakly")
    #expect(monitor.isStopped)
    let ended = await firstElement(of: AsyncStream<Bool> { continuation in
      Task {
        await listener.value
        continuation.yield(true)
      }
    }, within: .seconds(60))  // it ends when the main actor, busy with other suites, runs it
    #expect(ended == true, "the listening task ended")

    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(1), name: "Mia", note: nil))
    try context.save()
    #expect(monitor.signalCount == 0, "nothing reaches a released query")
    #expect(!monitor.hasChange)
  }

  @Test func refetchReadsTheStoreAtOnce() throws {
    let container = try StoreContainer.temporary(schema: TestSchema.v1, options: Sample.options)
    defer { try? container.destroy() }
    let query = try container.liveQuery(byName)
    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(1), name: "Mia", note: nil))
    try context.save()
    try query.refetch()
    #expect(query.results.map(\.name) == ["Mia"])
    #expect(!query.monitor.hasChange, "the refetch took the change: the listener will not fetch again")
  }

  @Test func aTrackedValueIsRecomputedWhenAnyOfItsEntitiesChanges() async throws {
    let container = try StoreContainer.temporary(schema: TestSchema.v1, options: Sample.options)
    defer { try? container.destroy() }
    let counts = try container.liveQuery(tracking: [Owner.self, Event.self]) { context in
      [try context.fetchCount(FetchDescriptor<Owner>()), try context.fetchCount(FetchDescriptor<Event>())]
    }
    #expect(counts.results == [0, 0])
    let context = container.newBackgroundContext()
    context.insert(Event(uuid: Sample.id(10), ownerID: nil, at: Sample.epoch, title: "feed", amount: nil))
    try context.save()
    #expect(await waitUntil(counts) { $0 == [0, 1] })
    context.insert(Owner(id: Sample.id(1), name: "Mia", note: nil))
    try context.save()
    #expect(await waitUntil(counts) { $0 == [1, 1] })
  }

  @Test func anInMemoryContainerHasLiveQueriesToo() async throws {
    let container = StoreContainer.inMemory(schema: TestSchema.v1, options: Sample.options)
    let query = try container.liveQuery(byName)
    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(1), name: "Mia", note: nil))
    try context.save()
    #expect(await waitUntil(query) { $0.count == 1 })
  }
}

/// The async-sequence form: `StoreContainer.observe(_:)`.
@Suite struct StoreObservationTests {
  @Test func observeYieldsTheResultsAtOnceThenAfterEachRelevantSave() async throws {
    let container = try StoreContainer.temporary(schema: TestSchema.v1, options: Sample.options)
    defer { try? container.destroy() }
    var iterator = container.observe(FetchDescriptor<Owner>(sortBy: [SortDescriptor(\.name)])).makeAsyncIterator()
    #expect(try await iterator.next() == [])

    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(1), name: "Mia", note: nil))
    try context.save()
    context.insert(Owner(id: Sample.id(2), name: "Leo", note: nil))
    try context.save()
    // Both saves came before the next element was asked for: one element shows both.
    #expect(try await iterator.next()?.map(\.name) == ["Leo", "Mia"])
  }

  @Test func cancellingTheObservingTaskEndsTheSequence() async throws {
    let container = try StoreContainer.temporary(schema: TestSchema.v1, options: Sample.options)
    defer { try? container.destroy() }
    let observation = container.observe(FetchDescriptor<Owner>())
    let (started, startedContinuation) = AsyncStream<Void>.makeStream()
    let task = Task {
      var elements = 0
      for try await _ in observation {
        elements += 1
        startedContinuation.yield()
      }
      return elements
    }
    _ = await firstElement(of: started, within: .seconds(10))
    task.cancel()
    let elements = try await firstElement(
      of: AsyncThrowingStream<Int, any Error> { continuation in
        Task { continuation.yield(with: await task.result) }
      }, within: .seconds(10)) { _ in true }
    #expect(elements == 1, "the sequence ended after its first element, once cancelled")
  }
}
