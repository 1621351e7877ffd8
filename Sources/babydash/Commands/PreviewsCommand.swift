import ArgumentParsing
import BabyDashboardPreviews
import Foundation

/// `babydash previews [--check] [--dir DIR]`.
enum PreviewsCommand {
  static let check = Flag("--check", help: "verify instead of writing: exit 1 on drift, a missing or an orphan file")
  static let directory = Option<String>("--dir", "DIR", help: "the previews folder (default: ./Previews)")

  static let command = Command(
    words: ["previews"], synopsis: "[--check] [--dir DIR]",
    summary: "Render every screen's preview into DIR; with --check, compare byte for byte and write nothing.",
    options: [
      check.spec, directory.spec,
    ],
    details: "Previews are <Screen>/<scenario>[.<variant>].txt, rendered in a fixed world (Tuesday 10 March 2026,\n10:30 in New York), so they are the same bytes on every machine.\n\nExamples:\n  babydash previews\n  babydash previews --check"
  ) { invocation in
    let directory = URL(fileURLWithPath: try invocation.value(PreviewsCommand.directory) ?? "Previews", isDirectory: true).standardizedFileURL
    if invocation.has(PreviewsCommand.check) {
      let result = try PreviewFiles.check(in: directory, environment: invocation.session.environment)
      guard result.isClean else {
        try invocation.output.error(result.report)
        throw PreviewsDrift()
      }
      try invocation.output.print(result.report)
    } else {
      try invocation.output.print(try PreviewFiles.record(into: directory).report)
    }
  }
}

/// The previews differ from the files: exit 1, the report already printed.
struct PreviewsDrift: Error {}
