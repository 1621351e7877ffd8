/// "1 feed", "2 feeds", "1 baby", "2 babies": counts as people read them.
enum Plural {
  static func count(_ number: Int, _ one: String, _ many: String? = nil) -> String {
    "\(number) \(number == 1 ? one : many ?? one + "s")"
  }
}
