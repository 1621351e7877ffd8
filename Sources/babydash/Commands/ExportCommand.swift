import Foundation

/// `babydash export`.
enum ExportCommand {
  static let command = Command(
    words: ["export"], synopsis: "",
    summary: "Print every object as one JSON document (sorted keys, stable order, UTC dates)."
  ) { invocation in
    let container = try invocation.session.storeForReading()
    let data = try ExportDocument(context: container.viewContext).encoded()
    invocation.output.print(String(decoding: data, as: UTF8.self))
  }
}
