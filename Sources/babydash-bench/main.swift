import Foundation

// babydash-bench: the store's figures at several sizes, as a table and one JSON line per size;
// several writer processes at once; and ours beside ../shared/peer-bench, interleaved.
// Run it in release: swift run -c release babydash-bench (Scripts/bench-vs-peer.sh for the pairs).

let options: BenchOptions
do {
  options = try BenchOptions(Array(CommandLine.arguments.dropFirst()))
} catch {
  if let message = error.message {
    writeStandardError("babydash-bench: \(message)\n\(BenchOptions.usage)\n")
    exit(64)
  }
  print(BenchOptions.usage)
  exit(0)
}

// Every store stays until the end (see FiguresRun): removed when this program exits, or by the
// pair runner that named the folder.
let scratch =
  options.scratch.map { URL(fileURLWithPath: $0) }
  ?? FileManager.default.temporaryDirectory.appendingPathComponent("babydash-bench-\(getpid())")
defer { if options.scratch == nil { try? FileManager.default.removeItem(at: scratch) } }
#if DEBUG
  if case .multiProcessWriter = options.mode {} else {
    progress("note: a debug build; run with -c release for figures that mean something")
  }
#endif

do {
  switch options.mode {
  case .rssProbe(let store):
    // A fresh process, so that its peak RSS is open-and-fetch-all's alone.
    _ = try StoreBench.fetchAllFeeds(URL(fileURLWithPath: store))
    print(Timing.peakResidentMegabytes())
  case .multiProcessWriter(let store, let index, let commits, let startAt):
    try MultiProcessWriter.run(store: URL(fileURLWithPath: store), index: index, commits: commits, startAt: startAt)
  case .multiProcess(let size):
    print(try MultiProcessBench(size: size, procs: options.procs, commits: options.commitsPerProcess, scratch: scratch).run())
  case .peer(let executable):
    let peer = URL(fileURLWithPath: executable)
    guard FileManager.default.isExecutableFile(atPath: peer.path) else {
      writeStandardError("babydash-bench: no executable at '\(executable)' for --peer\n")
      exit(64)
    }
    print(try PairRunner(options: options, peer: peer, scratch: scratch).run())
  case .arrivals(let count):
    // The live query refetches on the main actor: the main queue runs it, and this task, until exit.
    Task { @MainActor in
      do {
        print(try await ArrivalBench(count: count, scratch: scratch).run())
        if options.scratch == nil { try? FileManager.default.removeItem(at: scratch) }
        exit(0)
      } catch {
        writeStandardError("babydash-bench: error: \(error)\n")
        exit(1)
      }
    }
    dispatchMain()
  case .joinStep(let step, let folder):
    print(try MainActor.assumeIsolated { try JoinStep(step: step, folder: URL(fileURLWithPath: folder)).run() })
  case .join(let size):
    print(try MainActor.assumeIsolated { try JoinBench(size: size, scratch: scratch).run() })
  case .figures:
    let results = try FiguresRun(options: options, scratch: scratch).run()
    print(BenchFigures.table(results))
    print("")
    for figures in results { print(figures.jsonLine) }
  }
} catch {
  writeStandardError("babydash-bench: error: \(error)\n")
  exit(1)
}
