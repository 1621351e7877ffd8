import BabyDashboard
import Foundation
import PlainStore

extension Session {
  /// The baby a NAME argument means: its id, or its name when exactly one baby has it.
  func baby(_ nameOrID: String, in container: StoreContainer) throws -> BabyProfile {
    let babies = try container.viewContext.babies()
    if let id = UUID(uuidString: nameOrID), let baby = babies.first(where: { $0.id == id }) {
      return baby
    }
    let named = babies.filter { $0.name == nameOrID }
    switch named.count {
    case 1:
      return named[0]
    case 0:
      let known = babies.isEmpty ? "there are no babies yet (add one: babydash baby add NAME)" : "babies: " + babies.map(\.name).joined(separator: ", ")
      throw CommandLineError.data("no baby named '\(nameOrID)'; \(known)")
    default:
      let ids = named.map(\.id.uuidString).joined(separator: ", ")
      throw CommandLineError.data("\(named.count) babies are named '\(nameOrID)': give the id instead, one of \(ids)")
    }
  }
}
