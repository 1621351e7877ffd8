import Testing

@testable import babydash_bench

struct MultiProcessWriterTests {
  @Test func aWritersLineCarriesItsCPUTimeAndReadsBackAsItWas() throws {
    let report = MultiProcessWriter.Report(first: 1_000.5, last: 1_250.25, cpu: 61.75, samples: [1.5, 2.25, 40])
    #expect(report.line == "1000.5 1250.25 61.75 1.500,2.250,40.000")
    #expect(try MultiProcessWriter.Report(parsing: report.line + "\n") == report)
  }

  @Test func aLineWithoutItsCPUTimeIsRefusedByName() {
    #expect(throws: BenchRunError.self) { try MultiProcessWriter.Report(parsing: "1000.5 1250.25 1.500,2.250") }
  }
}
