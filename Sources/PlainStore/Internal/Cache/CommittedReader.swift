import Foundation

/// How a commit plan reads committed objects that may not be in memory yet: the store that
/// creates the planner supplies these, so the planner merges, indexes and checks without knowing
/// where segments come from (files, or a catch-up with other processes).
///
/// Each read may load segments into `state` (and, for a file store, catch up with other
/// processes first). Built once per commit; calling one costs no allocation.
struct CommittedReader {
  /// Makes sure one segment of a table is in memory.
  var ensureLoaded: (_ table: EntityTable, _ segment: String, _ state: inout StoreState) throws -> Void
  /// Makes sure every segment of a table is in memory.
  var loadAll: (_ table: EntityTable, _ state: inout StoreState) throws -> Void
  /// The committed object with this id, if any. `segment` (where a value of the object goes)
  /// names the segment to look in first; `thorough` loads every segment before it answers "none".
  var committedObject:
    (_ table: EntityTable, _ id: UUID, _ segment: String?, _ thorough: Bool, _ state: inout StoreState) throws -> (any Entity)?
}
