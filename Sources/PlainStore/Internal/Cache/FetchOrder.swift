import Foundation

/// The order of a fetch's results: its sort descriptors, then the id, so that the order is
/// total and the same on every run.
///
/// Sorts positions, not values: the objects stay where they are while an array of integers
/// moves, and a leading sort on a date key is compared as the numbers it holds, read once per
/// object instead of through a key-path comparator at every comparison. A fetch with a limit
/// keeps only the first `offset + limit` positions while it scans instead of sorting them all.
struct FetchOrder<E: Entity> {
  let sortBy: [SortDescriptor<E>]
  /// The first sort descriptor when it sorts on this date key, newest first when `reverse`.
  let leadingDate: (keyPath: KeyPath<E, Date>, reverse: Bool)?

  init(_ sortBy: [SortDescriptor<E>], leadingDate: (keyPath: KeyPath<E, Date>, reverse: Bool)?) {
    self.sortBy = sortBy
    self.leadingDate = sortBy.isEmpty ? nil : leadingDate
  }

  /// `objects` in this order, from `offset`, at most `limit` of them.
  func arranged(_ objects: consuming [E], offset: Int = 0, limit: Int? = nil) -> [E] {
    let wanted = limit.map { min(objects.count, offset.addingReportingOverflow($0).partialValue) } ?? objects.count
    guard offset < wanted else { return [] }
    let positions: [Int]
    if sortBy.isEmpty {
      let ids = objects.map { uuidOrder($0.id) }
      positions = Self.first(wanted, of: objects.count) { ids[$0] < ids[$1] }
    } else if let leadingDate {
      let keys = objects.map { $0[keyPath: leadingDate.keyPath].timeIntervalSinceReferenceDate }
      let reverse = leadingDate.reverse
      positions = Self.first(wanted, of: objects.count) { lhs, rhs in
        if keys[lhs] != keys[rhs] { return reverse ? keys[lhs] > keys[rhs] : keys[lhs] < keys[rhs] }
        return precedes(objects[lhs], objects[rhs], from: 1)
      }
    } else {
      positions = Self.first(wanted, of: objects.count) { precedes(objects[$0], objects[$1], from: 0) }
    }
    guard offset == 0, positions.count == objects.count else { return positions[offset...].map { objects[$0] } }
    // All of them: moved into place instead of copied into a second array as large.
    var all = consume objects
    Self.permute(&all, by: positions)
    return all
  }

  /// Puts the object at `positions[i]` at `i`, in place, cycle by cycle: each object is
  /// copied once, and no second array of objects is ever allocated.
  static func permute(_ objects: inout [E], by positions: [Int]) {
    var placed = [Bool](repeating: false, count: positions.count)
    for start in positions.indices where !placed[start] {
      placed[start] = true
      guard positions[start] != start else { continue }
      let first = objects[start]
      var hole = start
      while positions[hole] != start {
        let next = positions[hole]
        objects[hole] = objects[next]
        placed[next] = true
        hole = next
      }
      objects[hole] = first
    }
  }

  /// Whether `lhs` comes before `rhs` by the descriptors from `first` on, then by id.
  func precedes(_ lhs: E, _ rhs: E, from first: Int) -> Bool {
    for comparator in sortBy.dropFirst(first) {
      switch comparator.compare(lhs, rhs) {
      case .orderedAscending: return true
      case .orderedDescending: return false
      case .orderedSame: continue
      }
    }
    return uuidPrecedes(lhs.id, rhs.id)
  }

  /// The first `count` of the positions `0..<total` in the order `precedes`, a strict total
  /// order. A few of many are kept by binary insertion while scanning (linear in `total`);
  /// anything else is sorted whole.
  static func first(_ count: Int, of total: Int, by precedes: (Int, Int) -> Bool) -> [Int] {
    guard count < total, count <= 64, count * 8 <= total else {
      var all = Array(0..<total)
      all.sort(by: precedes)
      return count < total ? Array(all.prefix(count)) : all
    }
    guard count > 0 else { return [] }
    var best: [Int] = []
    best.reserveCapacity(count + 1)
    for position in 0..<total {
      if best.count == count, !precedes(position, best[count - 1]) { continue }
      var low = 0
      var high = best.count
      while low < high {
        let middle = (low + high) / 2
        if precedes(position, best[middle]) { high = middle } else { low = middle + 1 }
      }
      best.insert(position, at: low)
      if best.count > count { best.removeLast() }
    }
    return best
  }
}
