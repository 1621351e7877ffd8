import BabyDashboardPreviews
import Foundation
import Testing

@Suite struct PreviewFilesTests {
  /// The committed previews are what the code renders, byte for byte (SNAPSHOT_TESTING_RECORD
  /// picks what may be recorded; with CI=true nothing is).
  @Test @MainActor func everyPreviewMatchesTheCommittedFiles() throws {
    let environment = ProcessInfo.processInfo.environment
    let mode = try PreviewRecordMode.fromEnvironment(environment)
    let result = try PreviewFiles.verify(in: packagePreviews, mode: mode, environment: environment)
    #expect(result.isClean, "\(result.report)")
    #expect(result.checked == PreviewCatalog.entries.count)
  }
}
