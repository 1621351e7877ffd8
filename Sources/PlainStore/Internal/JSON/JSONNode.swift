/// One value of a parsed JSON document, as `JSONParser` lays it out: a flat array in document
/// order, where a container is followed by its contents (an object's as key, value, key, value…).
///
/// Strings and numbers stay as byte ranges of the document until a decoder asks for them, so
/// keys are compared without building Strings and values nobody reads cost nothing.
struct JSONNode {
  enum Kind: UInt8 { case null, `true`, `false`, number, string, array, object }

  var kind: Kind
  /// For a string: it holds escapes, so its bytes are not its text. For a number: it has a
  /// fraction or an exponent.
  var flag: Bool
  /// For a string (without quotes) or a number: where its bytes start in the document.
  var start: Int32
  /// For a string or a number: its length in bytes. For a container: how many values it holds
  /// (pairs for an object).
  var count: Int32
  /// For a container: the index of the node after its last content. Otherwise the next node.
  var end: Int32
}
