import Foundation
import Synchronization

/// Remembers that the store changed for a set of entities, until a live query takes the change
/// and refetches.
///
/// It listens to the container's broadcaster, which tells it on the thread that committed or
/// noticed the commit, before `save()` returns: so a burst of saves made
/// while the query is busy (or while its actor is busy making them) leaves one flag set, and the
/// query refetches once. A remote change that arrives as a reload (the other processes' commits
/// were compacted away before this one read them) carries no transactions, so it always counts.
final class StoreChangeMonitor: Sendable {
  private struct State {
    var changed = false
    var stopped = false
    var waiter: CheckedContinuation<Bool, Never>?
    var listening: Int?
    var task: Task<Void, Never>?
  }

  /// The entity names whose transactions count; empty for every entity.
  let entities: Set<String>
  private let state = StoreMutex(State())
  /// How many changes were signalled: for tests that prove nothing arrives after a stop.
  private let signals = Atomic<Int>(0)

  private let broadcaster: ChangeBroadcaster

  init(container: StoreContainer, entities: Set<String>) {
    self.entities = entities
    broadcaster = container.coordinator.broadcaster
    let token = broadcaster.listen { [weak self] heard in self?.receive(heard) }
    state.withLock { $0.listening = token }
  }

  deinit {
    stop()
  }

  /// Whether a change is waiting to be taken.
  var hasChange: Bool { state.withLock { $0.changed } }

  /// How many relevant changes were signalled so far.
  var signalCount: Int { signals.load(ordering: .relaxed) }

  /// Whether ``stop()`` ran.
  var isStopped: Bool { state.withLock { $0.stopped } }

  /// Takes the waiting change: true if there was one. Call it right before refetching, so that a
  /// change committed during the fetch is kept for the next one.
  func takeChange() -> Bool {
    state.withLock { state in
      defer { state.changed = false }
      return state.changed
    }
  }

  /// Waits until a change is waiting (at once if one is); false once stopped or cancelled.
  func wait() async -> Bool {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let answer: Bool? = state.withLock { state in
          if state.stopped || Task.isCancelled { return false }
          if state.changed { return true }
          state.waiter?.resume(returning: false)  // one waiter at a time; a second one replaces it
          state.waiter = continuation
          return nil
        }
        if let answer { continuation.resume(returning: answer) }
      }
    } onCancel: {
      let waiter = state.withLock { state in
        defer { state.waiter = nil }
        return state.waiter
      }
      waiter?.resume(returning: false)
    }
  }

  /// Ties a task's life to this monitor: ``stop()`` cancels it.
  func attach(_ task: Task<Void, Never>) {
    let stopped = state.withLock { state in
      state.task = task
      return state.stopped
    }
    if stopped { task.cancel() }
  }

  /// Stops listening, ends a waiting ``wait()`` with false and cancels the attached task.
  func stop() {
    let (listening, waiter, task) = state.withLock { state in
      defer {
        state.stopped = true
        state.listening = nil
        state.waiter = nil
        state.task = nil
      }
      return (state.listening, state.waiter, state.task)
    }
    if let listening { broadcaster.stopListening(listening) }
    waiter?.resume(returning: false)
    task?.cancel()
  }

  private func receive(_ heard: ChangeBroadcaster.Heard) {
    if !entities.isEmpty, case .transactions(let transactions) = heard,
      transactions.allSatisfy({ $0.changes.keys.allSatisfy { !entities.contains($0) } })
    {
      return
    }
    signal()
  }

  private func signal() {
    let (accepted, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Bool, Never>?) in
      guard !state.stopped else { return (false, nil) }
      state.changed = true
      defer { state.waiter = nil }
      return (true, state.waiter)
    }
    guard accepted else { return }
    signals.add(1, ordering: .relaxed)
    waiter?.resume(returning: true)
  }
}
