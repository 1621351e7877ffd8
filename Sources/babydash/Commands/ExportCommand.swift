import BabyDashboard

/// `babydash export`.
enum ExportCommand {
  static let command = Command(
    words: ["export"], synopsis: "",
    summary: "Print a backup of everything (ids, createdAt, the cached amounts) as one JSON document; import restores it.",
    details: "The format is versioned and documented in the README (\"Backup and restore\").\n\nExample:\n  babydash export > backup.json\n  babydash --app-group /tmp/restored import backup.json"
  ) { invocation in
    let session = invocation.session
    let container = try session.storeForReading()
    let cache = session.storeExists ? session.cache : nil
    let data = try Backup(context: container.viewContext, cache: cache).encoded()
    try invocation.output.print(String(decoding: data, as: UTF8.self))
  }
}
