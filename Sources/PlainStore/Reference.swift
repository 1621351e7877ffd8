import Foundation

/// A to-one reference from `Source` to another entity, by id, with a delete rule.
///
/// ```swift
/// Reference(\Note.notebookID, to: Notebook.self, onDelete: .nullify)
/// ```
/// The to-many side needs no declaration: it is a fetch on the key.
public struct Reference<Source: Entity>: Sendable {
  let key: WritableKeyPath<Source, UUID?> & Sendable
  let keyName: String
  let targetEntity: String
  let deleteRule: DeleteRule

  public init<Target: Entity>(
    _ key: WritableKeyPath<Source, UUID?> & Sendable, to target: Target.Type, onDelete deleteRule: DeleteRule
  ) {
    self.key = key
    self.keyName = propertyName(of: key)
    self.targetEntity = Target.entityName
    self.deleteRule = deleteRule
  }
}

/// "\Note.createdAt" → "createdAt": the name a key path has in files and messages.
func propertyName(of keyPath: AnyKeyPath) -> String {
  let text = String(describing: keyPath)
  guard let dot = text.firstIndex(of: ".") else { return text }
  return String(text[text.index(after: dot)...])
}
