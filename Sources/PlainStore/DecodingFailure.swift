/// Where and why a document could not be decoded, in words a person can act on: the one
/// explanation of a `DecodingError`, for the engine's files and for its clients' own.
///
/// ```swift
/// DecodingFailure(error).description  // "notes[3].createdAt: the key is missing"
/// ```
public struct DecodingFailure: Sendable, Hashable, CustomStringConvertible {
  /// The path of the value, `notes[3].createdAt`; "" for the document itself.
  public var path: String
  /// What was wrong: "the key is missing", "expected a number", "is null; expected a string",
  /// "not valid JSON (damaged or truncated)", or the decoder's own description.
  public var detail: String
  /// Whether the document as a whole could not be read (not JSON, truncated), rather than one value.
  public var isUnreadable: Bool

  public init(_ error: DecodingError) {
    isUnreadable = false
    switch error {
    case .keyNotFound(let key, let context):
      path = Self.pathText(context.codingPath + [key])
      detail = "the key is missing"
    case .valueNotFound(let type, let context):
      path = Self.pathText(context.codingPath)
      detail = "is null; expected \(Self.typeName(type))"
    case .typeMismatch(let type, let context):
      path = Self.pathText(context.codingPath)
      detail = "expected \(Self.typeName(type))"
    case .dataCorrupted(let context) where context.codingPath.isEmpty:
      path = ""
      detail = "not valid JSON (damaged or truncated)" + (context.underlyingError.map { ": \($0)" } ?? "")
      isUnreadable = true
    case .dataCorrupted(let context):
      path = Self.pathText(context.codingPath)
      detail = context.debugDescription
    @unknown default:
      path = ""
      detail = String(describing: error)
    }
  }

  /// "path: detail", or the detail alone for the whole document.
  public var description: String { path.isEmpty ? detail : "\(path): \(detail)" }

  /// `notes[3].createdAt`: keys joined by dots, indexes in brackets.
  public static func pathText(_ codingPath: [any CodingKey]) -> String {
    var text = ""
    for key in codingPath {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : "." + key.stringValue
      }
    }
    return text
  }

  private static func typeName(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: return "a string"
    case is Double.Type, is Float.Type, is Int.Type, is Int64.Type: return "a number"
    case is Bool.Type: return "true or false"
    case is [Any].Type: return "an array"
    default: return "an object"
    }
  }
}
