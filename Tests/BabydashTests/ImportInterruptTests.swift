import Foundation
import Testing

/// Ctrl-C during `babydash import`: the import stops between two batches, keeps and says what it
/// saved, exits 130, and a second run finishes it to the same store a run never stopped makes; a
/// stop before the first batch leaves no store behind (README: nothing is written when a
/// command fails, not even an empty store).
@Suite struct ImportInterruptTests {
  let tool: BabydashProcess
  let family = ImportCommandTests.fixtures.appendingPathComponent("legacy/family.json").path

  init() throws { tool = try BabydashProcess() }

  func importFamily(interruptAt step: String? = nil) throws -> BabydashProcess.Result {
    try tool.run(
      ["--now", "2026-03-01T00:00:00Z", "import", family, "--batch-size", "5"],
      environment: step.map { ["BABYDASH_TEST_INTERRUPT_AT": $0] } ?? [:])
  }

  @Test func ctrlCBetweenBatchesKeepsWhatWasSavedAndASecondRunFinishes() throws {
    defer { tool.removeAll() }
    let whole = try importFamily()
    #expect(whole.status == 0, "\(whole.stderr)")
    let expected = try tool.run(["export"]).stdout
    tool.removeAll()

    let stopped = try importFamily(interruptAt: "import-batch-2")
    #expect(stopped.status == 130)
    #expect(
      stopped.stderr
        == "babydash: stopped importing '\(family)': after 10 of 18 objects, as asked — the 10 objects saved stay; run the import again to finish (it skips them).\n")
    #expect(stopped.stdout.isEmpty)
    #expect(try tool.run(["export"]).stdout.components(separatedBy: "\"startTime\"").count - 1 < 9, "a stopped import wrote every feed")

    let finished = try importFamily()
    #expect(finished.status == 0, "\(finished.stderr)")
    #expect(try tool.run(["export"]).stdout == expected)
  }

  @Test func ctrlCBeforeTheFirstBatchLeavesNoStore() throws {
    defer { tool.removeAll() }
    let stopped = try importFamily(interruptAt: "import-start")
    #expect(stopped.status == 130)
    #expect(stopped.stderr == "babydash: stopped importing '\(family)': after 0 of 18 objects, as asked — nothing was written.\n")
    #expect(try tool.snapshot().isEmpty, "an interrupted import left files behind")
  }
}
