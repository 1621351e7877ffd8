/// The kind of a diaper change, stored as its raw value ("pee" / "poo").
public enum DiaperType: String, Codable, Sendable, Hashable, CaseIterable {
  case pee
  case poo
}
