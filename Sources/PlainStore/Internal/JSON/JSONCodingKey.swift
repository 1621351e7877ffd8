/// The coding keys the codec makes itself: array positions in coding paths ("Index 3", as
/// Foundation names them) and the "super" key.
///
/// Small enough (three words) to live inline in an `any CodingKey`, so pushing one onto a coding
/// path allocates nothing.
struct JSONCodingKey: CodingKey {
  private let name: String?
  private let index: Int

  init(index: Int) {
    name = nil
    self.index = index
  }

  init(stringValue: String) {
    name = stringValue
    index = 0
  }

  init?(intValue: Int) { self.init(index: intValue) }

  var stringValue: String { name ?? "Index \(index)" }
  var intValue: Int? { name == nil ? index : nil }

  static let superKey = JSONCodingKey(stringValue: "super")
}
