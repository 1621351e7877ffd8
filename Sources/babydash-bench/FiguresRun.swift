import BabyDashboard
import BabyDashboardPreviews
import Foundation

/// The default mode: every figure at each size, in an order where one phase's leftovers do not
/// land in the next one's timing (the store is built, read, probed, then written to).
///
/// Nothing is deleted until the run ends: each bulk insert and import gets a folder of its own.
/// On ext4 without a journal (this project's machine) creating a file passes over every inode
/// of its group freed in the last one to six minutes, one buffer lookup each (`recently_deleted`
/// in the kernel's `find_inode_bit`), so a phase that deleted a store made the next phase's
/// file creations, a commit's change file among them, up to ten times dearer: one commit per
/// save ran 25 % slower right after a run had deleted its store than a minute later.
@MainActor
struct FiguresRun {
  let options: BenchOptions
  let scratch: URL

  func run() throws -> [BenchFigures] {
    var previewsMilliseconds = Double.nan
    if !options.sharedOnly {
      progress("previews: render the catalog")
      _ = try PreviewFiles.render()  // warm up: the first rendering loads time zone data
      previewsMilliseconds = try Timing.median(runs: options.runs) { _ = try PreviewFiles.render() }
    }
    var results: [BenchFigures] = []
    for size in options.sizes {
      let history = BenchHistory(objects: size)
      var figures = BenchFigures(objects: history.objectCount)
      let bench = StoreBench(history: history, runs: options.runs, commits: options.commits)
      let folders = (1...options.bulkRuns).map { scratch.appendingPathComponent("store-\(size)-\($0)") }
      let folder = folders.last!
      progress("\(size): bulk insert")
      figures.bulkInsert = Timing.percentile(try folders.map(bench.bulkInsert(into:)), 0.5)
      progress("\(size): open to dashboard, open and fetch all, one baby's month")
      figures.openDashboard = try bench.openDashboard(folder)
      figures.openFetchAll = try bench.openFetchAll(folder)
      let month = try bench.openFiltered(folder, dateRange: true)
      (figures.openFiltered, figures.filteredWarm, figures.filteredRows) = month
      let plain = try bench.openFiltered(folder, dateRange: false)
      precondition(plain.rows == month.rows, "with and without dateRange found \(month.rows) and \(plain.rows) rows")
      (figures.openFilteredPlain, figures.filteredPlainWarm) = (plain.cold, plain.warm)
      progress("\(size): peak memory")
      figures.peakRSS = try PeakMemoryProbe.run(store: folder)
      progress("\(size): the platform's floor, then durable commits")
      figures.floor = try DurableFileFloor(folder: scratch.appendingPathComponent("floor-\(size)"), samples: options.commits).measure()
      let samples = try bench.commit(folder)
      figures.commitP50 = Timing.percentile(samples, 0.5)
      figures.commitP95 = Timing.percentile(samples, 0.95)
      figures.commitP99 = Timing.percentile(samples, 0.99)
      figures.commitMax = samples.max() ?? .nan
      figures.commitMean = samples.reduce(0, +) / Double(samples.count)
      if !options.sharedOnly {
        progress("\(size): legacy import")
        let importer = ImportBench(history: history)
        let legacyFile = scratch.appendingPathComponent("legacy-\(size).json")
        try importer.legacyFile(at: legacyFile)
        let importFolders = (1...options.bulkRuns).map { scratch.appendingPathComponent("import-\(size)-\($0)") }
        figures.legacyImport = Timing.percentile(try importFolders.map { try importer.run(legacyFile, into: $0) }, 0.5)
      }
      figures.previews = previewsMilliseconds
      results.append(figures)
    }
    return results
  }
}

/// A progress line on standard error, so standard output stays the table and the JSON lines.
func progress(_ text: String) {
  writeStandardError("\(text)\n")
}
