import BabyDashboardTesting
import Foundation
import PlainStore
import Testing

/// Real processes on one store: plainstore-stress children write while this process reads and
/// watches. Serialized (with the suites nested in it) because they share two cores.
@Suite(.serialized) struct MultiProcessTests {
  /// Six writer processes past the change-compaction threshold (1000 commits), as
  /// `plainstore-stress bench` checks them: every item, and every commit a transaction in
  /// order — the merge of the snapshot a compaction writes is none.
  @Test func severalWritersPastAChangeCompactionLeaveOneTransactionPerCommit() throws {
    let shared = MultiProcessFolder()
    defer { shared.remove() }
    let child = try MultiProcessChild.run(["bench", shared.store.path, "--writers", "6", "--commits", "200", "--threshold", "16"])
    #expect(child.lines.last?.hasPrefix("writers=6 commits_each=200 total=1200 ") == true, "\(child.lines)")
  }

  @Test func concurrentWritersCommitEveryBatchExactlyOnce() async throws {
    let writers = 4
    let commits = 250
    let total = writers * commits
    let shared = MultiProcessFolder()
    defer { shared.remove() }
    let container = try shared.open()
    try container.historyReader(named: "audit").markConsumed(through: HistoryToken(sequence: 0))  // keep every log
    let changes = container.remoteChanges()
    container.startWatching()  // reads without the lock while the writers commit and compact
    defer { container.stopWatching() }

    let children = try (0..<writers).map { index in
      try MultiProcessChild([
        "write", shared.store.path, "--writer", "w\(index)", "--commits", String(commits),
        "--threshold", "16", "--retention", "8", "--expect-total", String(total),
      ])
    }
    var reported: [ReportedCommit] = []
    var digests: Set<String> = []
    for (index, child) in children.enumerated() {
      let status = child.waitForExit()
      try #require(status == 0, "writer w\(index) exited with \(status): \(child.errorText)")
      let commitsOfChild = child.lines.compactMap { ReportedCommit(line: $0, writer: "w\(index)") }
      #expect(commitsOfChild.map(\.batch) == Array(0..<commits), "w\(index) reports every batch once, in order")
      reported += commitsOfChild
      let digest = try #require(child.lines.first { $0.hasPrefix("digest ") }, "w\(index) printed no digest")
      digests.insert(digest)
    }

    // Every sequence used once, by exactly the commits that reported it.
    #expect(reported.map(\.sequence).sorted() == Array(1...total))
    try container.refresh()
    let history = try container.history(after: nil)
    #expect(history.map(\.sequence) == Array(1...total))
    let bySequence = Dictionary(uniqueKeysWithValues: reported.map { ($0.sequence, $0) })
    for transaction in history {
      let commit = try #require(bySequence[transaction.sequence])
      #expect(transaction.author == commit.writer)
      #expect(transaction.changes == [MultiProcessItem.entityName: EntityChanges(inserted: commit.ids.sorted(by: uuidOrder))])
    }

    // This process, watching, announced every commit once, as it happened.
    let announced = await collect(changes, sequencesThrough: total, within: .seconds(60))
    #expect(announced.map(\.sequence) == Array(1...total))
    #expect(announced.allSatisfy { $0.author == bySequence[$0.sequence]?.writer })

    // Exactly N×M objects, and every process sees the same ones.
    let items = try container.newBackgroundContext().fetch(FetchDescriptor<MultiProcessItem>())
    #expect(items.count == total)
    #expect(Set(items.map(\.id)) == Set(reported.flatMap(\.ids)))
    #expect(digests == ["digest \(total) \(MultiProcessItem.digest(items))"], "each writer's final view equals this one")
  }

  /// Several processes open a store that does not exist yet and write at once. A process that
  /// read store.json as absent while another created the store and committed to it used to
  /// refuse the folder as "not a store" (about one round in ten of 6 writers here); rounds make
  /// that window likely to be hit.
  @Test(arguments: 0..<8)
  func writersCreatingTheStoreTogetherAllSucceed(round: Int) throws {
    let shared = MultiProcessFolder()
    defer { shared.remove() }
    let children = try (0..<6).map { index in
      try MultiProcessChild(["write", shared.store.path, "--writer", "c\(index)", "--commits", "3", "--expect-total", "18"])
    }
    // Every writer's outcome before any verdict: one that fails early starves the others.
    let statuses = children.map { $0.waitForExit() }
    let failures = zip(statuses, children).filter { $0.0 != 0 }.map { "status \($0.0): \($0.1.errorText)" }
    try #require(failures.isEmpty, "writers failed on the new store: \(failures.joined(separator: " | "))")
    var digests: Set<String> = []
    for child in children {
      digests.insert(try #require(child.lines.first { $0.hasPrefix("digest ") }))
    }
    let items = try shared.open().newBackgroundContext().fetch(FetchDescriptor<MultiProcessItem>())
    #expect(digests == ["digest 18 \(MultiProcessItem.digest(items))"])
  }

  @Test func watchingAnnouncesAnotherProcessCommitAsRemoteChange() async throws {
    let shared = MultiProcessFolder()
    defer { shared.remove() }
    let container = try shared.open()
    let notifications = NotificationLog(container)
    defer { notifications.stop() }
    let changes = container.remoteChanges()
    container.startWatching()
    defer { container.stopWatching() }

    let child = try MultiProcessChild.run(["write", shared.store.path, "--writer", "B", "--commits", "1", "--parts", "2"])
    let commit = try #require(child.lines.compactMap { ReportedCommit(line: $0, writer: "B") }.first)
    let change = try #require(await firstElement(of: changes, within: .seconds(30)), "no remote change within 30 s")

    let expected = [MultiProcessItem.entityName: EntityChanges(inserted: commit.ids.sorted(by: uuidOrder))]
    #expect(change.transactions.map(\.sequence) == [commit.sequence])
    #expect(change.transactions.map(\.author) == ["B"])
    #expect(change.transactions.map(\.changes) == [expected])
    #expect(!change.reloaded)
    #expect(notifications.transactions(within: .seconds(10)) == change.transactions)
    let seen = try container.newBackgroundContext().fetch(FetchDescriptor<MultiProcessItem>())
    #expect(Set(seen.map(\.id)) == Set(commit.ids))
  }

  @Test func refreshAndSaveCatchUpWithAnotherProcess() async throws {
    let shared = MultiProcessFolder()
    defer { shared.remove() }
    // Not watching: the commits must arrive through refresh() and the save alone.
    let container = try shared.open(StoreOptions(author: "parent", watchesOtherProcesses: false))
    let context = container.newBackgroundContext()
    let changes = container.remoteChanges()

    // A context sees the other process's commit after refresh().
    let first = try MultiProcessChild.run(["write", shared.store.path, "--writer", "B", "--commits", "1"])
    let firstCommit = try #require(first.lines.compactMap { ReportedCommit(line: $0, writer: "B") }.first)
    #expect(try container.refresh())
    #expect(try context.fetchCount(FetchDescriptor<MultiProcessItem>()) == 1)
    #expect(try #require(await firstElement(of: changes, within: .seconds(10))).transactions.map(\.sequence) == [firstCommit.sequence])

    // ...and before its own save, which follows it in the sequence.
    let second = try MultiProcessChild.run(["write", shared.store.path, "--writer", "C", "--commits", "1"])
    let secondCommit = try #require(second.lines.compactMap { ReportedCommit(line: $0, writer: "C") }.first)
    context.insert(MultiProcessItem(id: UUID(), writer: "parent", batch: 0, part: 0, at: Date(timeIntervalSince1970: 0)))
    let own = try #require(try context.save().transaction)
    #expect(own.sequence == secondCommit.sequence + 1)
    let remote = try #require(await firstElement(of: changes, within: .seconds(10)))
    #expect(remote.transactions.map(\.author) == ["C"])
    #expect(try context.fetchCount(FetchDescriptor<MultiProcessItem>()) == 3)
  }
}

/// UUIDs in the order the engine lists them in a transaction (its byte order).
func uuidOrder(_ a: UUID, _ b: UUID) -> Bool {
  withUnsafeBytes(of: a.uuid) { a in withUnsafeBytes(of: b.uuid) { b in a.lexicographicallyPrecedes(b) } }
}

/// The transactions of the remote changes announced until one reaches `last` (or `timeout`, a
/// ``ResponsiveDeadline``, passes); fails the test if the state was reloaded, which loses
/// transactions.
func collect(_ changes: AsyncStream<RemoteChange>, sequencesThrough last: Int, within timeout: Duration) async -> [Transaction] {
  await withTaskGroup(of: [Transaction]?.self) { group in
    group.addTask {
      var transactions: [Transaction] = []
      for await change in changes {
        #expect(!change.reloaded)
        transactions += change.transactions
        if (transactions.last?.sequence ?? 0) >= last { break }
      }
      return transactions
    }
    group.addTask {
      await ResponsiveDeadline(timeout).expire()
      return nil
    }
    let result = await group.next() ?? nil
    group.cancelAll()
    return result ?? []
  }
}

/// The remote-change notifications a container posts, as they arrive on any thread.
final class NotificationLog: Sendable {
  private final class Received: Sendable {
    let transactions = StoreMutex<[[Transaction]]>([])
  }

  private let received = Received()
  nonisolated(unsafe) private let observer: any NSObjectProtocol  // only handed back to NotificationCenter

  init(_ container: StoreContainer) {
    let received = self.received
    observer = NotificationCenter.default.addObserver(
      forName: .plainStoreRemoteChange, object: container, queue: nil
    ) { notification in
      let transactions = notification.userInfo?["transactions"] as? [Transaction] ?? []
      received.transactions.withLock { $0.append(transactions) }
    }
  }

  /// The transactions of all notifications so far, waiting up to `timeout` for the first.
  func transactions(within timeout: Duration) -> [Transaction] {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while received.transactions.withLock({ $0.isEmpty }) && clock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
    return received.transactions.withLock { $0.flatMap { $0 } }
  }

  func stop() {
    NotificationCenter.default.removeObserver(observer)
  }
}
