extension MergedState {
  /// One field group of an object as its writes leave it: per member, the value of the last
  /// write that set it.
  ///
  /// An update sets its groups whole (a member it leaves out was set to nil, which is a value),
  /// so after one the group is its write. An insert sets only what it carries: a member it left
  /// nil keeps the value an earlier write gave it, as the insert's save on a phone that held
  /// that write keeps it (Dad notes the amount and start of a feed whose end Mom's phone
  /// logged: the end stays). Joining per member is commutative, associative and idempotent, so
  /// the order writes are folded in never matters.
  struct Register: Equatable, Sendable {
    /// The newest of the members' writes.
    var stamp: ChangeStamp
    var fields: [String: RawJSON]
    /// The members an older write than `stamp` set, with that write's stamp; empty when one
    /// write set them all.
    var earlier: [String: ChangeStamp] = [:]

    init(stamp: ChangeStamp, fields: [String: RawJSON], earlier: [String: ChangeStamp] = [:]) {
      self.stamp = stamp
      self.fields = fields
      self.earlier = earlier
    }

    /// Who wrote one member.
    func stamp(of member: String) -> ChangeStamp { earlier[member] ?? stamp }

    /// Whether this write comes after `other` in the order key writes are kept in: the later
    /// stamp; for two writes with one stamp (two copies of a device's store that wrote the same
    /// sequence at the same instant), the greater value.
    func wins(over other: Register) -> Bool {
      if stamp != other.stamp { return stamp > other.stamp }
      return Self.orderKey(other.fields).lexicographicallyPrecedes(Self.orderKey(fields))
    }

    private static func orderKey(_ fields: [String: RawJSON]) -> [UInt8] {
      fields.sorted { $0.key < $1.key }.flatMap { Array($0.key.utf8) + [0] + $0.value.bytes + [0] }
    }

    /// Joins another write of the group in: per member the later writer's value (for one
    /// stamp, the greater value).
    mutating func join(_ other: Register) {
      // The usual case: one write after the other that sets every member the other set.
      if other.earlier.isEmpty && earlier.isEmpty && other.stamp != stamp {
        if other.stamp > stamp && fields.keys.allSatisfy({ other.fields[$0] != nil }) { return self = other }
        if stamp > other.stamp && other.fields.keys.allSatisfy({ fields[$0] != nil }) { return }
      }
      var joined = fields
      var stamps: [String: ChangeStamp] = [:]
      for member in fields.keys { stamps[member] = stamp(of: member) }
      for (member, value) in other.fields {
        let theirs = other.stamp(of: member)
        if let ours = stamps[member], let held = joined[member] {
          guard theirs > ours || (theirs == ours && held.bytes.lexicographicallyPrecedes(value.bytes)) else { continue }
        }
        joined[member] = value
        stamps[member] = theirs
      }
      let newest = stamps.values.max()!
      self = Register(stamp: newest, fields: joined, earlier: stamps.filter { $0.value != newest })
    }

    /// The members written at or after `since`; nil when there are none.
    func written(since: ChangeStamp) -> Register? {
      guard stamp >= since else { return nil }
      guard !earlier.isEmpty else { return self }
      let kept = fields.filter { stamp(of: $0.key) >= since }
      return Register(stamp: stamp, fields: kept, earlier: earlier.filter { $0.value >= since })
    }
  }
}
