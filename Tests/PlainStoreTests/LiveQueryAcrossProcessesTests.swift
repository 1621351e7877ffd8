import BabyDashboardTesting
import Foundation
@testable import PlainStore
import Testing

extension MultiProcessTests {
  /// A plainstore-stress child writes while this process observes: live queries and
  /// observations follow another process's commits, including ones compacted away before this
  /// process read them.
  @Suite struct LiveQueryAcrossProcessesTests {
    @MainActor @Test func aLiveQueryFollowsAnotherProcessCommitsWithoutARefresh() async throws {
      let shared = MultiProcessFolder()
      defer { shared.remove() }
      let container = try shared.open()  // watching: the default of a file container
      let query = try container.liveQuery(FetchDescriptor<MultiProcessItem>(sortBy: [SortDescriptor(\.batch)]))
      #expect(query.results.isEmpty)

      let writer = try MultiProcessChild(["write", shared.store.path, "--writer", "B", "--commits", "5"])
      #expect(await waitUntil(query, within: .seconds(60)) { $0.map(\.batch) == Array(0..<5) })
      #expect(writer.waitForExit() == 0, "writer: \(writer.errorText)")
      #expect(query.results.allSatisfy { $0.writer == "B" })
    }

    /// Core Data's remote-change option, on by default: no startWatching(), no refresh().
    @Test func aFileContainerNoticesAnotherProcessCommitByItself() async throws {
      let shared = MultiProcessFolder()
      defer { shared.remove() }
      let container = try shared.open()
      let changes = container.remoteChanges()

      let writer = try MultiProcessChild.run(["write", shared.store.path, "--writer", "B", "--commits", "1"])
      let commit = try #require(writer.lines.compactMap { ReportedCommit(line: $0, writer: "B") }.first)
      let change = try #require(await firstElement(of: changes, within: .seconds(30)))
      #expect(change.transactions.map(\.sequence) == [commit.sequence])
      let seen = try container.newBackgroundContext().fetch(FetchDescriptor<MultiProcessItem>())
      #expect(seen.map(\.id) == commit.ids, "a plain fetch sees it once it was announced")
    }

    @Test func anObservationFollowsAnotherProcessCommits() async throws {
      let shared = MultiProcessFolder()
      defer { shared.remove() }
      let container = try shared.open()
      let observation = container.observe(FetchDescriptor<MultiProcessItem>())
      var iterator = observation.makeAsyncIterator()
      #expect(try await iterator.next() == [])  // listening from here on

      let writer = try MultiProcessChild(["write", shared.store.path, "--writer", "B", "--commits", "20"])
      let all = try await firstElement(of: observation, within: .seconds(60)) { $0.count == 20 }
      #expect(all.map { Set($0.map(\.batch)) } == Set(0..<20))
      let next = try await iterator.next()
      #expect(next.map { $0.count > 0 } == true, "the first iterator saw the commits too")
      #expect(writer.waitForExit() == 0, "writer: \(writer.errorText)")
    }

    /// The writer compacts after every commit and keeps no log, so this process, which does
    /// not watch, finds on refresh a manifest ahead of it and no log to read: a reload with no
    /// transactions. The live query must refetch all the same.
    @MainActor @Test func aLiveQueryRefetchesAfterACompactionReloadWithNoTransactions() async throws {
      let shared = MultiProcessFolder()
      defer { shared.remove() }
      let container = try shared.open(StoreOptions(author: "parent", watchesOtherProcesses: false))
      let query = try container.liveQuery(FetchDescriptor<MultiProcessItem>(sortBy: [SortDescriptor(\.batch)]))
      let changes = container.remoteChanges()

      let writer = try MultiProcessChild.run([
        "write", shared.store.path, "--writer", "B", "--commits", "6", "--threshold", "1", "--retention", "0",
      ])
      #expect(writer.lines.filter { $0.hasPrefix("committed ") }.count == 6, "writer: \(writer.errorText)")
      #expect(query.results.isEmpty, "not watching: nothing arrived yet")

      try container.refresh()
      let change = try #require(await firstElement(of: changes, within: .seconds(10)))
      #expect(change.reloaded && change.transactions.isEmpty, "the commits arrived as a reload: \(change)")
      #expect(await waitUntil(query, within: .seconds(30)) { $0.map(\.batch) == Array(0..<6) })
    }
  }
}
