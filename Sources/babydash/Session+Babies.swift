import BabyDashboard
import Foundation
import PlainStore

extension Session {
  /// The baby a NAME argument means: its id, or a prefix only its id has (4 characters or
  /// more, as for events), or its name when exactly one baby has it — exactly as stored first,
  /// else with case and Unicode forms folded (``TrackerRules/nameKey(_:)``: `mia`, `MIA`).
  func baby(_ nameOrID: String, in container: StoreContainer) throws -> BabyProfile {
    let babies = try container.viewContext.babies()
    if let id = UUID(uuidString: nameOrID), let baby = babies.first(where: { $0.id == id }) {
      return baby
    }
    let exact = babies.filter { $0.name == nameOrID }
    var named = exact.isEmpty ? babies.filter { TrackerRules.isSameName($0.name, nameOrID) } : exact
    let wanted = nameOrID.trimmingCharacters(in: .whitespaces).lowercased()
    if named.isEmpty, wanted.count >= 4, wanted.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
      named = babies.filter { $0.id.uuidString.lowercased().hasPrefix(wanted) }
    }
    switch named.count {
    case 1:
      return named[0]
    case 0:
      let known = babies.isEmpty ? "there are no babies yet (add one: babydash baby add NAME)" : "babies: " + babies.map(\.name).joined(separator: ", ")
      throw CommandLineError.data("no baby named '\(nameOrID)'; \(known)")
    default:
      let ids = named.map(\.id.uuidString).joined(separator: ", ")
      let what = named.allSatisfy({ TrackerRules.isSameName($0.name, nameOrID) }) ? "are named" : "have an id starting with"
      throw CommandLineError.data("\(named.count) babies \(what) '\(nameOrID)': give the id instead (a prefix only one has will do), one of \(ids)")
    }
  }
}
