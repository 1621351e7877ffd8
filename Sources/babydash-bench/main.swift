import BabyDashboard
import BabyDashboardPreviews
import Foundation
import PlainStore

// babydash-bench: the store's figures at several sizes, as a table and one JSON line per size.
// Run it in release: swift run -c release babydash-bench

let options: BenchOptions
do {
  options = try BenchOptions(Array(CommandLine.arguments.dropFirst()))
} catch let error as BenchUsageError {
  if let message = error.message {
    FileHandle.standardError.write(Data("babydash-bench: \(message)\n\(BenchOptions.usage)\n".utf8))
    exit(64)
  }
  print(BenchOptions.usage)
  exit(0)
}

if let probe = options.rssProbe {
  // A fresh process, so that its peak RSS is open-and-fetch-all's alone.
  _ = try StoreBench.fetchAllFeeds(URL(fileURLWithPath: probe))
  print(Timing.peakResidentMegabytes())
  exit(0)
}

func progress(_ text: String) {
  FileHandle.standardError.write(Data("\(text)\n".utf8))
}

let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("babydash-bench-\(getpid())")
defer { try? FileManager.default.removeItem(at: scratch) }
#if DEBUG
  progress("note: a debug build; run with -c release for figures that mean something")
#endif

progress("previews: render the catalog")
_ = try PreviewFiles.render()  // warm up: the first rendering loads time zone data
let previewsMilliseconds = try Timing.median(runs: options.runs) { _ = try PreviewFiles.render() }

var results: [BenchFigures] = []
for size in options.sizes {
  let history = BenchHistory(objects: size)
  var figures = BenchFigures(objects: history.objectCount)
  let bench = StoreBench(history: history, runs: options.runs, commits: options.commits)
  let folder = scratch.appendingPathComponent("store-\(size)")
  progress("\(size): bulk insert")
  figures.bulkInsert = Timing.percentile(try (0..<options.bulkRuns).map { _ in try bench.bulkInsert(into: folder) }, 0.5)
  progress("\(size): open to dashboard, open and fetch all")
  figures.openDashboard = try bench.openDashboard(folder)
  figures.openFetchAll = try bench.openFetchAll(folder)
  progress("\(size): peak memory")
  figures.peakRSS = try PeakMemoryProbe.run(store: folder)
  progress("\(size): durable commits")
  (figures.commitP50, figures.commitP95) = try bench.commit(folder)
  progress("\(size): legacy import")
  let importer = ImportBench(history: history)
  let legacyFile = scratch.appendingPathComponent("legacy-\(size).json")
  try importer.legacyFile(at: legacyFile)
  figures.legacyImport = Timing.percentile(
    try (0..<options.bulkRuns).map { _ in try importer.run(legacyFile, into: scratch.appendingPathComponent("import-\(size)")) }, 0.5)
  figures.previews = previewsMilliseconds
  results.append(figures)
}

print(BenchFigures.table(results))
print("")
for figures in results {
  print(figures.jsonLine)
}
