extension StoreCoordinator {
  /// What a commit plan reads through: this store's segment loading and object lookup.
  var committedReader: CommittedReader {
    CommittedReader(
      ensureLoaded: { [self] table, segment, state in try ensureLoaded(table, segment, &state) },
      loadAll: { [self] table, state in try loadAll(table, &state) },
      committedObject: { [self] table, id, segment, thorough, state in
        try committedObject(table, id, segment: segment, thorough: thorough, &state)
      })
  }

  /// A planner for one commit against `state`.
  func makePlanner(_ state: StoreState) -> CommitPlanner {
    CommitPlanner(schema: schema, mergeSchema: mergeSchema, reader: committedReader, state: state)
  }

  /// Loads what planning `changes` reads, as a fetch loads what it reads, without the store's
  /// lock: a commit waiting for it does this meanwhile. Decides nothing (a failure is the
  /// plan's to report, holding the lock).
  func prepareCommit(_ changes: [PendingChange]) {
    state.withLock { state in
      var planner = makePlanner(state)
      try? planner.load(for: changes)
      state = planner.state
    }
    options.phaseObserver?("commit: prepared")
  }
}
