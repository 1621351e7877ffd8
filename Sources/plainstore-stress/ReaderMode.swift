import PlainStore

/// `reader`: acts as a named history reader in its own process. With `--consume-through S`
/// it moves its token to S first, and with `--prune-through P` prunes the history through P
/// (what the reader has not consumed stays); then prints `token <S|none>` and `pending <sequences>`.
struct ReaderMode {
  let arguments: StressArguments

  func run() throws {
    let name = try arguments.value(StressOptions.name, default: "")
    guard !name.isEmpty else { throw StressUsageError("reader needs --name") }
    let container = try StoreContainer.file(at: arguments.store, schema: StressSchema.v1)
    let reader = container.historyReader(named: name)
    let through = try arguments.value(StressOptions.consumeThrough, default: -1)
    if through >= 0 { try reader.markConsumed(through: HistoryToken(sequence: through)) }
    let prune = try arguments.value(StressOptions.pruneThrough, default: -1)
    if prune >= 0 { try container.pruneHistory(through: HistoryToken(sequence: prune)) }
    StressOutput.line("token \(try reader.token().map { String($0.sequence) } ?? "none")")
    StressOutput.line("pending \(try reader.pending().map { String($0.sequence) }.joined(separator: ","))")
  }
}
